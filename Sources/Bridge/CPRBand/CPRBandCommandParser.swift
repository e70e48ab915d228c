import Peripherals

/// Turns `cpr/<id>/cmd/<name>` payloads into band commands. Pure.
enum CPRBandCommandParser {
    static var commandNames: [String] { examples.map(\.command) }

    /// Every command, with a payload that works.
    static let examples: [CommandExample] = [
        CommandExample("ready", "{}"), CommandExample("call", "{}"), CommandExample("practice", "{}"),
        CommandExample("evaluate", "{}"), CommandExample("range", #"{"min_mm":50,"max_mm":60}"#),
        CommandExample("name", #"{"name":"CPR-01"}"#), CommandExample("reset", "{}"), CommandExample("power_off", "{}"),
        CommandExample("mode", #"{"mode":"practicing"}"#),
    ]

    /// The modes `mode` sets, named as `cpr/<id>/mode` reports them.
    static let modes = ["ready", "practicing", "evaluating"]

    static func parse(command name: String, payload: CommandPayload) throws(CommandError) -> CPRBandCommand {
        switch name {
        case "ready", "call", "practice", "evaluate", "reset", "power_off":
            try payload.rejectUnknownFields(allowed: [])
            switch name {
            case "ready": return .ready
            case "call": return .call
            case "practice": return .practice
            case "evaluate": return .evaluate
            case "reset": return .reset
            default: return .powerOff
            }
        case "mode":
            // `ready`, `practice` and `evaluate` as one command with a state, for a select.
            try payload.rejectUnknownFields(allowed: ["mode", "value"])
            switch try payload.string("mode", orValue: true) {
            case "ready": return .ready
            case "practicing": return .practice
            case "evaluating": return .evaluate
            default: throw CommandError(.invalidValue, "'mode' must be one of \(modes.joined(separator: ", "))")
            }
        case "range":
            try payload.rejectUnknownFields(allowed: ["min_mm", "max_mm"])
            let minimum = try payload.integer("min_mm", in: 0...255)
            let maximum = try payload.integer("max_mm", in: 0...255)
            do {
                return .range(try CPRBandDepthRange(minMillimetres: minimum, maxMillimetres: maximum))
            } catch {
                throw CommandError(.invalidValue, "'\(fieldName(error.field))' \(error.message)")
            }
        case "name":
            try payload.rejectUnknownFields(allowed: ["name", "value"])
            let text = try payload.string("name", orValue: true)
            do {
                return .name(try CPRBandName(text))
            } catch {
                throw CommandError(.invalidValue, "'name' \(error.message)")
            }
        default:
            throw CommandError(
                .unknownCommand, "unknown CPR-Band command '\(name)'; known: \(commandNames.joined(separator: ", "))")
        }
    }

    /// The codec's field names, as MQTT users spell them.
    private static func fieldName(_ field: String) -> String {
        switch field {
        case "minMillimetres", "min": "min_mm"
        case "maxMillimetres", "max": "max_mm"
        default: BeltCommandParser.snakeCase(field)
        }
    }
}
