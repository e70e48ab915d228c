import ArgumentParser
import Foundation
import Peripherals

/// One press of `--buttons`, e.g. `3:compass:short`: seconds after the first subscription, button, kind.
struct ScriptedButtonPress: Sendable, Equatable {
    var delaySeconds: Double
    var button: BeltButton
    var long: Bool

    /// Parses `<seconds>:<power|pause|compass|home>:<short|long>`.
    init?(_ text: String) {
        let parts = text.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, let delay = Double(parts[0]), delay >= 0, let button = BeltButton(name: parts[1]),
            let long = PressKind.isLong(parts[2])
        else { return nil }
        self.delaySeconds = delay
        self.button = button
        self.long = long
    }
}

/// The whole `--buttons` list, comma-separated.
struct ButtonScript: ExpressibleByArgument, Sendable {
    var presses: [ScriptedButtonPress]

    init?(argument: String) {
        var presses: [ScriptedButtonPress] = []
        for item in argument.split(separator: ",") {
            guard let press = ScriptedButtonPress(String(item)) else { return nil }
            presses.append(press)
        }
        self.presses = presses.sorted { $0.delaySeconds < $1.delaySeconds }
    }
}

/// `short` / `long`.
enum PressKind {
    static func isLong(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "short": false
        case "long": true
        default: nil
        }
    }
}
