import Peripherals

/// Turns `belt/<id>/cmd/<name>` payloads into belt commands. Pure: nothing is written here, so a
/// refused command can never reach the belt. Field names are snake_case; errors name the field.
enum BeltCommandParser {
    /// The commands this bridge understands, by topic name.
    static let commandNames: [String] = [
        "mode", "vibrate", "channel", "pulse", "stop", "signal", "intensity", "compass_accuracy_signal",
        "heading_offset", "orientation",
    ]

    static func parse(command name: String, payload: CommandPayload) throws(CommandError) -> BeltBridgeCommand {
        switch name {
        case "mode": return .write(try mode(payload))
        case "vibrate": return .write(try vibrate(payload))
        case "channel": return .write(try channel(payload))
        case "pulse": return .write(try pulse(payload))
        case "stop": return .write(try stop(payload))
        case "signal": return .write(try signal(payload))
        case "intensity": return .write(try intensity(payload))
        case "compass_accuracy_signal": return .write(try accuracySignal(payload))
        case "heading_offset": return .write(try headingOffset(payload))
        case "orientation": return try orientation(payload)
        default:
            throw CommandError(.unknownCommand, "unknown belt command '\(name)'; known: \(commandNames.joined(separator: ", "))")
        }
    }

    /// `app` or `{"mode":"app"}`.
    private static func mode(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["mode", "value"])
        let mode = try named(BeltMode.self, "mode", in: payload, orValue: true)
        // Calibration is started on the belt itself (iOS refuses to send it too); standby switches it off.
        guard mode != .calibration else { throw CommandError(.invalidValue, "'mode' calibration cannot be set remotely") }
        return .changeMode(mode)
    }

    /// A library preset: `{"direction":90,"orientation":"bearing","pattern":"navigation","intensity":50,"channel":1}`.
    private static func vibrate(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["direction", "orientation", "pattern", "intensity", "channel"])
        return .vibrate(try presetConfiguration(payload))
    }

    /// The configuration of a preset signal; shared with navigation.
    static func presetConfiguration(_ payload: CommandPayload, patternField: String = "pattern") throws(CommandError) -> ChannelConfiguration {
        let patternName = try payload.optionalString(patternField) ?? BeltSignalPreset.continuous.name
        guard let preset = BeltSignalPreset(name: patternName) else {
            throw CommandError(
                .invalidValue, "'\(patternField)' '\(patternName)' is unknown; known: \(BeltSignalPreset.allCases.map(\.name).joined(separator: ", "))")
        }
        let orientation = try directionType(payload)
        let direction = try payload.optionalInteger("direction", in: -3600...3600)
        if preset.isDirectional, direction == nil {
            throw CommandError(.invalidValue, "'direction' is required for pattern '\(preset.name)'")
        }
        let intensity = try payload.optionalInteger("intensity", in: 0...100)
        let channel = try payload.optionalInteger("channel", in: 0...5)
        return try checked {
            try preset.configuration(direction: direction ?? 0, orientationType: orientation, channel: channel, intensity: intensity)
        }
    }

    /// `bearing` (from magnetic North) or `angle` (from the belt's front); bearing by default.
    static func directionType(_ payload: CommandPayload) throws(CommandError) -> OrientationType {
        switch try payload.optionalString("orientation") ?? "bearing" {
        case "bearing": return .bearing
        case "angle": return .angle
        default: throw CommandError(.invalidValue, "'orientation' must be 'bearing' or 'angle'")
        }
    }

    /// All ten parameters of a channel configuration (belt.md §3.2.1).
    private static func channel(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: [
            "channel", "pattern", "intensity", "orientation_type", "orientation", "iterations", "period_ms",
            "start_time_ms", "exclusive", "clear_others",
        ])
        let pattern = try named(VibrationPattern.self, "pattern", in: payload)
        let type = try named(OrientationType.self, "orientation_type", in: payload)
        let configuration = try checked {
            try ChannelConfiguration(
                channel: try payload.integer("channel", in: 0...5), pattern: pattern,
                intensity: try payload.optionalInteger("intensity", in: 0...100), orientationType: type,
                orientationValue: try payload.integer("orientation", in: -3600...0xFFFF),
                iterations: try iterations(payload, "iterations", maximum: 127),
                periodMs: try payload.integer("period_ms", in: 1...0xFFFF),
                startTimeMs: try payload.optionalInteger("start_time_ms", in: 0...0xFFFF) ?? 0,
                exclusive: try payload.optionalBool("exclusive") ?? false,
                clearOthers: try payload.optionalBool("clear_others") ?? false)
        }
        return .vibrate(configuration)
    }

    /// The pulse command (firmware ≥ 45; belt.md §3.2.2).
    private static func pulse(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: [
            "channel", "orientation_type", "orientation", "intensity", "on_duration_ms", "pulse_iterations",
            "series_iterations", "pulse_period_ms", "series_period_ms", "timer_option", "exclusive", "clear_others",
        ])
        let type = try named(OrientationType.self, "orientation_type", in: payload)
        let timer = try payload.optionalString("timer_option").map { name throws(CommandError) in
            guard let option = PulseTimerOption(name: name) else {
                throw CommandError(.invalidValue, "'timer_option' must be one of reset, reset_if_period_differs, keep")
            }
            return option
        }
        let configuration = try checked {
            try PulseConfiguration(
                channel: try payload.integer("channel", in: 0...5), orientationType: type,
                orientationValue: try payload.integer("orientation", in: -3600...0xFFFF),
                intensity: try payload.optionalInteger("intensity", in: 0...100),
                onDurationMs: try payload.integer("on_duration_ms", in: 1...0xFFFF),
                pulseIterations: try payload.optionalInteger("pulse_iterations", in: 1...255) ?? 1,
                seriesIterations: try iterations(payload, "series_iterations", maximum: 127),
                pulsePeriodMs: try payload.integer("pulse_period_ms", in: 1...0xFFFF),
                seriesPeriodMs: try payload.integer("series_period_ms", in: 1...0xFFFF),
                timerOption: timer ?? .resetIfPeriodDiffers,
                exclusive: try payload.optionalBool("exclusive") ?? false,
                clearOthers: try payload.optionalBool("clear_others") ?? false)
        }
        return .pulse(configuration)
    }

    /// `{}` stops every channel, `{"channel":2}` one.
    private static func stop(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["channel", "value"])
        let channel = try payload.optionalInteger("channel", in: 0...5)
        let value = try payload.optionalInteger("value", in: 0...5)
        return (channel ?? value).map { .stopChannel($0) } ?? .stopAll
    }

    /// `warning`, `destination_reached` or `battery_level`.
    private static func signal(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["signal", "value"])
        return .systemSignal(try named(SystemSignal.self, "signal", in: payload, orValue: true))
    }

    /// `{"intensity":50,"feedback":true}`: the belt's default intensity, 5–100 (its own minimum is 5).
    private static func intensity(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["intensity", "feedback", "value"])
        let intensity = try payload.fields["intensity"] != nil
            ? payload.integer("intensity", in: 5...100) : payload.integer("value", in: 5...100)
        return .changeDefaultIntensity(intensity, vibrationFeedback: try payload.optionalBool("feedback") ?? true)
    }

    /// `{"enabled":true,"persist":false}`, or per mode: `{"compass_mode":true,"app_mode":false}`.
    private static func accuracySignal(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["enabled", "compass_mode", "app_mode", "persist", "value"])
        var state: AccuracySignalState = []
        if let enabled = try payload.optionalBool(payload.fields["enabled"] != nil ? "enabled" : "value") {
            state = enabled ? .default : []
        } else {
            guard let compass = try payload.optionalBool("compass_mode"), let app = try payload.optionalBool("app_mode") else {
                throw CommandError(.invalidValue, "'enabled' (or both 'compass_mode' and 'app_mode') is required")
            }
            if compass { state.insert(.compassMode) }
            if app { state.insert(.appMode) }
        }
        return .setAccuracySignal(state, persist: try payload.optionalBool("persist") ?? false)
    }

    /// `{"offset":45,"persist":true}`: the angle between belt and control box, 0–359.
    private static func headingOffset(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["offset", "persist", "value"])
        let offset = try payload.integer(payload.fields["offset"] != nil ? "offset" : "value", in: 0...359)
        return .setHeadingOffset(degrees: offset, persist: try payload.optionalBool("persist") ?? false)
    }

    /// `{"enabled":true,"period_ms":100}`: orientation notifications and their period (≥ 20 ms, firmware ≥ 52).
    private static func orientation(_ payload: CommandPayload) throws(CommandError) -> BeltBridgeCommand {
        try payload.rejectUnknownFields(allowed: ["enabled", "period_ms", "value"])
        let enabled = try payload.optionalBool(payload.fields["enabled"] != nil ? "enabled" : "value")
        let period = try payload.optionalInteger("period_ms", in: 20...0xFFFF)
        guard enabled != nil || period != nil else { throw CommandError(.invalidValue, "'enabled' or 'period_ms' is required") }
        return .orientation(enabled: enabled, periodMs: period)
    }

    // MARK: Helpers

    /// `null`, `"forever"` or a count.
    private static func iterations(_ payload: CommandPayload, _ name: String, maximum: Int) throws(CommandError) -> Int? {
        if case .string("forever") = payload.fields[name] { return nil }
        return try payload.optionalInteger(name, in: 1...maximum)
    }

    private static func named<T: BeltNamedValue & CaseIterable>(
        _ type: T.Type, _ field: String, in payload: CommandPayload, orValue: Bool = false
    ) throws(CommandError) -> T {
        let name = try payload.string(field, orValue: orValue)
        guard let value = T(name: name) else {
            throw CommandError(.invalidValue, "'\(field)' must be one of \(T.allCases.map(\.name).joined(separator: ", "))")
        }
        return value
    }

    /// Runs a Peripherals validation and names the failing field as MQTT users spell it.
    private static func checked<T>(_ body: () throws -> T) throws(CommandError) -> T {
        do {
            return try body()
        } catch let error as CommandError {
            throw error
        } catch let error as BeltCommandError {
            throw CommandError(.invalidValue, "'\(snakeCase(error.field))' \(error.message)")
        } catch {
            throw CommandError(.invalidValue, "\(error)")
        }
    }

    static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }
}
