import Peripherals

/// A parsed `a5/<id>/cmd/<name>`.
enum Activ5BridgeCommand: Sendable, Equatable {
    case start
    case stop
    case tare
    case imu(enabled: Bool)
    case samplePeriod(Activ5SamplePeriod)
    case evergreen(enabled: Bool)
}

/// Turns `a5/<id>/cmd/<name>` payloads into commands. Pure.
enum Activ5CommandParser {
    static var commandNames: [String] { examples.map(\.command) }

    /// Every command, with a payload that works.
    static let examples: [CommandExample] = [
        CommandExample("start", "{}"), CommandExample("stop", "{}"), CommandExample("tare", "{}"),
        CommandExample("imu", #"{"enabled":true}"#), CommandExample("sample_period", #"{"period_ms":100}"#),
        CommandExample("evergreen", #"{"enabled":true}"#), CommandExample("stream", #"{"enabled":true}"#),
    ]

    static func parse(command name: String, payload: CommandPayload) throws(CommandError) -> Activ5BridgeCommand {
        switch name {
        case "start", "stop", "tare":
            try payload.rejectUnknownFields(allowed: [])
            return name == "start" ? .start : name == "stop" ? .stop : .tare
        case "imu":
            return .imu(enabled: try flag(payload))
        case "stream":
            // `start` and `stop` as one command with a state, for a switch (Home Assistant's has one command topic).
            return try flag(payload) ? .start : .stop
        case "evergreen":
            return .evergreen(enabled: try flag(payload))
        case "sample_period":
            try payload.rejectUnknownFields(allowed: ["period_ms", "value"])
            let milliseconds = try payload.integer(
                payload.fields["period_ms"] != nil ? "period_ms" : "value", in: 1...32767)
            do {
                return .samplePeriod(try Activ5SamplePeriod(milliseconds: milliseconds))
            } catch {
                throw CommandError(.invalidValue, "'period_ms' \(error)")
            }
        default:
            throw CommandError(
                .unknownCommand, "unknown Activ5 command '\(name)'; known: \(commandNames.joined(separator: ", "))")
        }
    }

    /// `{"enabled":true}`, `true`, `on` or `off`.
    private static func flag(_ payload: CommandPayload) throws(CommandError) -> Bool {
        try payload.rejectUnknownFields(allowed: ["enabled", "value"])
        switch payload.fields["enabled"] ?? payload.fields["value"] {
        case .bool(let value): return value
        case .string("on"): return true
        case .string("off"): return false
        case nil: throw CommandError(.invalidValue, "'enabled' is required")
        default: throw CommandError(.invalidValue, "'enabled' must be true or false")
        }
    }
}
