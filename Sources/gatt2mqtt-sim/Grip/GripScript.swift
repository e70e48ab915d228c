import ArgumentParser
import Foundation

/// One item of `--script`, e.g. `2.5:full_press`: seconds after the first subscription to the event
/// characteristic, and an event (SDK name or alias) or a sequence (`shutter`, `dial_burst`, …).
struct GripScriptedAction: Sendable, Equatable {
    var delaySeconds: Double
    var action: GripAction

    /// Parses `<seconds>:<name>`.
    init?(_ text: String) {
        let parts = text.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let delay = Double(parts[0]), delay >= 0, delay.isFinite,
            let action = GripAction(name: parts[1])
        else { return nil }
        self.delaySeconds = delay
        self.action = action
    }
}

/// The whole `--script` list, comma-separated, e.g. `2:half_press,2.5:full_press,3:release,4:dial_burst`.
struct GripScript: ExpressibleByArgument, Sendable {
    var actions: [GripScriptedAction]

    init?(argument: String) {
        var actions: [GripScriptedAction] = []
        for item in argument.split(separator: ",") {
            guard let action = GripScriptedAction(String(item)) else { return nil }
            actions.append(action)
        }
        // Stable: items at the same second keep their order.
        self.actions = actions.enumerated().sorted {
            ($0.element.delaySeconds, $0.offset) < ($1.element.delaySeconds, $1.offset)
        }
        .map(\.element)
    }
}
