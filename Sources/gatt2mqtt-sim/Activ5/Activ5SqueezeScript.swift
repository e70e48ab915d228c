import ArgumentParser
import Foundation

/// One squeeze of `--squeezes`, e.g. `6:double`: seconds after force streaming first starts, and the kind.
struct Activ5ScriptedSqueeze: Sendable, Equatable {
    var delaySeconds: Double
    var squeeze: Activ5Squeeze

    /// Parses `<seconds>:<squeeze|double>`.
    init?(_ text: String) {
        let parts = text.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let delay = Double(parts[0]), delay >= 0, delay.isFinite,
            let squeeze = Activ5Squeeze(name: parts[1])
        else { return nil }
        self.delaySeconds = delay
        self.squeeze = squeeze
    }
}

/// The whole `--squeezes` list, comma-separated, e.g. `2:squeeze,6:double`.
struct Activ5SqueezeScript: ExpressibleByArgument, Sendable {
    var squeezes: [Activ5ScriptedSqueeze]

    init?(argument: String) {
        var squeezes: [Activ5ScriptedSqueeze] = []
        for item in argument.split(separator: ",") {
            guard let squeeze = Activ5ScriptedSqueeze(String(item)) else { return nil }
            squeezes.append(squeeze)
        }
        self.squeezes = squeezes.sorted { $0.delaySeconds < $1.delaySeconds }
    }
}
