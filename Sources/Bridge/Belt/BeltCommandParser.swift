import Peripherals

/// Turns `belt/<id>/cmd/<name>` payloads into belt commands. Pure: nothing is written here, so a
/// refused command can never reach the belt. Field names are snake_case; errors name the field.
enum BeltCommandParser {
    /// The commands this bridge understands, by topic name.
    static var commandNames: [String] { examples.map(\.command) }

    /// Every command, with a payload that works (topics.md has the same ones).
    static let examples: [CommandExample] = [
        CommandExample("mode", "app"),
        CommandExample("vibrate", #"{"direction":90,"orientation":"bearing","pattern":"navigation","intensity":40}"#),
        CommandExample(
            "channel",
            #"{"channel":1,"pattern":"single_long","intensity":60,"orientation_type":"motor_index","orientation":4,"iterations":3,"period_ms":750}"#
        ),
        CommandExample(
            "pulse",
            #"{"channel":2,"orientation_type":"angle","orientation":90,"intensity":50,"on_duration_ms":100,"pulse_period_ms":300,"series_period_ms":2000}"#
        ),
        CommandExample("stop", "{}"),
        CommandExample("signal", "warning"),
        CommandExample("intensity", #"{"intensity":60,"feedback":true}"#),
        CommandExample("compass_accuracy_signal", #"{"enabled":true,"persist":false}"#),
        CommandExample("heading_offset", #"{"offset":45,"persist":false}"#),
        CommandExample("orientation", #"{"enabled":true,"period_ms":500}"#),
        CommandExample(
            "navigation",
            #"{"action":"start","direction":90,"orientation":"bearing","signal":"navigation","intensity":50}"#),
        CommandExample("notify", #"{"type":"direction","direction":90,"orientation":"angle"}"#),
    ]

    static func parse(command name: String, payload: CommandPayload) throws(CommandError) -> BeltBridgeCommand {
        switch name {
        case "mode": return .write(try mode(payload))
        case "vibrate": return try vibration(vibrate(payload), payload)
        case "channel": return try vibration(channel(payload), payload)
        case "pulse": return try vibration(pulse(payload), payload)
        case "stop": return .write(try stop(payload))
        case "signal": return .write(try signal(payload))
        case "intensity": return .write(try intensity(payload))
        case "compass_accuracy_signal": return .write(try accuracySignal(payload))
        case "heading_offset": return .write(try headingOffset(payload))
        case "orientation": return try orientation(payload)
        case "navigation": return .navigation(try navigation(payload))
        case "notify": return .notify(try notify(payload))
        default:
            throw CommandError(
                .unknownCommand, "unknown belt command '\(name)'; known: \(commandNames.joined(separator: ", "))")
        }
    }

    /// A vibration with its `switch_to_app` choice: put the belt in app mode first if needed (default false).
    private static func vibration(_ command: BeltCommand, _ payload: CommandPayload) throws(CommandError)
        -> BeltBridgeCommand
    {
        .vibration(command, switchToApp: try payload.optionalBool("switch_to_app") ?? false)
    }

    /// `app` or `{"mode":"app"}`.
    private static func mode(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: ["mode", "value"])
        let mode = try named(BeltMode.self, "mode", in: payload, orValue: true)
        // Calibration is started on the belt itself (iOS refuses to send it too); standby switches it off.
        guard mode != .calibration else {
            throw CommandError(.invalidValue, "'mode' calibration cannot be set remotely")
        }
        return .changeMode(mode)
    }

    /// A library preset: `{"direction":90,"orientation":"bearing","pattern":"navigation","intensity":50,"channel":1}`.
    private static func vibrate(_ payload: CommandPayload) throws(CommandError) -> BeltCommand {
        try payload.rejectUnknownFields(allowed: [
            "direction", "orientation", "pattern", "intensity", "channel", "switch_to_app",
        ])
        return .vibrate(try presetConfiguration(payload))
    }

    /// The configuration of a preset signal; shared with navigation.
    static func presetConfiguration(_ payload: CommandPayload, patternField: String = "pattern") throws(CommandError)
        -> ChannelConfiguration
    {
        let patternName = try payload.optionalString(patternField) ?? BeltSignalPreset.continuous.name
        guard let preset = BeltSignalPreset(name: patternName) else {
            throw CommandError(
                .invalidValue,
                "'\(patternField)' '\(patternName)' is unknown; known: \(BeltSignalPreset.allCases.map(\.name).joined(separator: ", "))"
            )
        }
        let orientation = try directionType(payload)
        let direction = try payload.optionalInteger("direction", in: -3600...3600)
        if preset.isDirectional, direction == nil {
            throw CommandError(.invalidValue, "'direction' is required for pattern '\(preset.name)'")
        }
        let intensity = try payload.optionalInteger("intensity", in: 0...100)
        let channel = try payload.optionalInteger("channel", in: 0...5)
        return try checked {
            try preset.configuration(
                direction: direction ?? 0, orientationType: orientation, channel: channel, intensity: intensity)
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
            "start_time_ms", "exclusive", "clear_others", "switch_to_app",
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
            "switch_to_app",
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
        let intensity =
            try payload.fields["intensity"] != nil
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
            guard let compass = try payload.optionalBool("compass_mode"), let app = try payload.optionalBool("app_mode")
            else {
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
        guard enabled != nil || period != nil else {
            throw CommandError(.invalidValue, "'enabled' or 'period_ms' is required")
        }
        return .orientation(enabled: enabled, periodMs: period)
    }

    /// `{"action":"start","direction":90,"orientation":"bearing","signal":"navigation","intensity":50}`;
    /// `signal` `none` (or null) keeps navigating without vibration; `action` alone for pause, resume, stop.
    private static func navigation(_ payload: CommandPayload) throws(CommandError) -> NavigationRequest {
        try payload.rejectUnknownFields(allowed: ["action", "direction", "orientation", "signal", "intensity", "value"])
        let action = try payload.string("action", orValue: true)
        switch action {
        case "start": return .start(try navigationSignal(payload))
        case "update": return .update(try navigationSignal(payload))
        case "pause", "resume", "stop":
            if let extra = ["direction", "orientation", "signal", "intensity"].first(where: {
                payload.fields[$0] != nil
            }) {
                throw CommandError(.invalidValue, "'\(extra)' does not go with action '\(action)'")
            }
            return action == "pause" ? .pause : action == "resume" ? .resume : .stop
        default:
            throw CommandError(.invalidValue, "'action' must be one of start, update, pause, resume, stop")
        }
    }

    static func navigationSignal(_ payload: CommandPayload) throws(CommandError) -> BeltNavigation.Signal {
        var preset: BeltSignalPreset? = .navigation
        switch payload.fields["signal"] {
        case nil: break
        case .null, .string("none"): preset = nil
        case .string(let name):
            guard let named = BeltSignalPreset(name: name) else {
                throw CommandError(
                    .invalidValue,
                    "'signal' '\(name)' is unknown; known: none, \(BeltSignalPreset.allCases.filter(\.repeatsForever).map(\.name).joined(separator: ", "))"
                )
            }
            preset = named
        default: throw CommandError(.invalidValue, "'signal' must be a preset name or none")
        }
        let direction = try payload.optionalInteger("direction", in: -3600...3600)
        if preset?.isDirectional == true, direction == nil {
            throw CommandError(.invalidValue, "'direction' is required for signal '\(preset?.name ?? "")'")
        }
        let signal = BeltNavigation.Signal(
            direction: direction ?? 0, orientation: try directionType(payload), preset: preset,
            intensity: try payload.optionalInteger("intensity", in: 0...100))
        _ = try signal.command()  // refuses one-shot presets here, before anything is sent
        return signal
    }

    /// `{"type":"direction","direction":90,"orientation":"angle"}`, `{"type":"warning","critical":true}`,
    /// `{"type":"destination_reached","stop_navigation":true}`, `{"type":"battery"}`.
    private static func notify(_ payload: CommandPayload) throws(CommandError) -> BeltNavigation.NotificationKind {
        let type = try payload.string("type", orValue: true)
        switch type {
        case "direction":
            try payload.rejectUnknownFields(allowed: ["type", "direction", "orientation", "intensity"])
            return .direction(
                try payload.integer("direction", in: -3600...3600), orientation: try directionType(payload),
                intensity: try payload.optionalInteger("intensity", in: 0...100))
        case "warning":
            try payload.rejectUnknownFields(allowed: ["type", "critical"])
            return .warning(critical: try payload.optionalBool("critical") ?? false)
        case "destination_reached":
            try payload.rejectUnknownFields(allowed: ["type", "stop_navigation"])
            return .destinationReached(stopNavigation: try payload.optionalBool("stop_navigation") ?? false)
        case "battery":
            try payload.rejectUnknownFields(allowed: ["type", "value"])
            return .batteryLevel
        default:
            throw CommandError(.invalidValue, "'type' must be one of direction, warning, destination_reached, battery")
        }
    }

    // MARK: Helpers

    /// `null`, `"forever"` or a count.
    private static func iterations(_ payload: CommandPayload, _ name: String, maximum: Int) throws(CommandError) -> Int?
    {
        if case .string("forever") = payload.fields[name] { return nil }
        return try payload.optionalInteger(name, in: 1...maximum)
    }

    private static func named<T: BeltNamedValue & CaseIterable>(
        _ type: T.Type, _ field: String, in payload: CommandPayload, orValue: Bool = false
    ) throws(CommandError) -> T {
        let name = try payload.string(field, orValue: orValue)
        guard let value = T(name: name) else {
            throw CommandError(
                .invalidValue, "'\(field)' must be one of \(T.allCases.map(\.name).joined(separator: ", "))")
        }
        return value
    }

    /// Runs a Peripherals validation and names the failing field as MQTT users spell it.
    private static func checked<T>(_ body: () throws -> T) throws(CommandError) -> T {
        do {
            return try body()
        } catch let error as CommandError {
            throw error
        } catch let error as FieldError {
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
