import Peripherals

/// Turns `belt/<id>/cmd/<name>` payloads into belt commands. Pure: nothing is written here, so a
/// refused command can never reach the belt.
public enum BeltCommandParser {
    /// The commands this bridge understands, by topic name.
    public static let commandNames: Set<String> = ["mode", "vibrate"]

    public static func parse(command name: String, payload: CommandPayload) throws(CommandError) -> BeltCommand {
        switch name {
        case "mode": return try mode(payload)
        case "vibrate": return try vibrate(payload)
        default:
            throw CommandError(.unknownCommand, "unknown belt command '\(name)'; known: \(commandNames.sorted().joined(separator: ", "))")
        }
    }

    /// `app` or `{"mode":"app"}`.
    private static func mode(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["mode", "value"])
        let name = try payload.string("mode", orValue: true)
        guard let mode = BeltMode(name: name) else {
            throw CommandError(.invalidValue, "'mode' must be one of \(BeltMode.allCases.map(\.name).joined(separator: ", "))")
        }
        // Calibration is started on the belt itself (iOS refuses to send it too); standby switches it off.
        guard mode != .calibration else { throw CommandError(.invalidValue, "'mode' calibration cannot be set remotely") }
        return .changeMode(mode)
    }

    /// `{"direction":90,"orientation":"bearing"|"angle","pattern":"navigation","intensity":50,"channel":1}`.
    private static func vibrate(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["direction", "orientation", "pattern", "intensity", "channel"])
        let patternName = try payload.optionalString("pattern") ?? BeltSignalPreset.continuous.name
        guard let preset = BeltSignalPreset(name: patternName) else {
            throw CommandError(.invalidValue, "'pattern' '\(patternName)' is unknown; known: \(BeltSignalPreset.allCases.map(\.name).joined(separator: ", "))")
        }
        let orientationName = try payload.optionalString("orientation") ?? "bearing"
        let orientation: OrientationType
        switch orientationName {
        case "bearing": orientation = .bearing
        case "angle": orientation = .angle
        default: throw CommandError(.invalidValue, "'orientation' must be 'bearing' or 'angle'")
        }
        let direction = try payload.optionalInteger("direction", in: -3600...3600)
        if preset.isDirectional, direction == nil {
            throw CommandError(.invalidValue, "'direction' is required for pattern '\(preset.name)'")
        }
        let intensity = try payload.optionalInteger("intensity", in: 0...100)
        let channel = try payload.optionalInteger("channel", in: 0...5)
        do {
            return .vibrate(try preset.configuration(
                direction: direction ?? 0, orientationType: orientation, channel: channel, intensity: intensity))
        } catch {
            throw CommandError(.invalidValue, "'\(error.field)' \(error.message)")
        }
    }
}
