import Bridge
import Peripherals

/// A declaration's commands: each write's value as constant bytes and range-checked numbers of the payload, and for
/// a control point the indication that answers it (docs/devices.md, "Commands").
extension DeclarationReader {
    static func readCommands(
        _ node: YAMLNode?, characteristics: [DeclaredCharacteristic], file: String
    ) throws(DeclarationError) -> [DeclaredCommand] {
        guard let node else { return [] }
        guard case .sequence(let items) = node.content else {
            throw DeclarationError(file: file, line: node.line, message: "commands must be a list")
        }
        // The names of the values' Home Assistant entities: a command's button or number takes its own name.
        let valueObjects = Set(
            characteristics.flatMap { characteristic in
                characteristic.topic == nil
                    ? characteristic.leaves
                    : characteristic.fields.flatMap { $0.bits.map(\.name) + [$0.name] }.map(characteristic.entityObject)
            })
        var commands: [DeclaredCommand] = []
        for item in items {
            let command = try readCommand(item, file: file)
            guard !commands.contains(where: { $0.name == command.name }) else {
                throw DeclarationError(file: file, line: item.line, message: "command '\(command.name)' is given twice")
            }
            guard !valueObjects.contains(command.name) else {
                throw DeclarationError(
                    file: file, line: item.line,
                    message:
                        "command '\(command.name)' has a value's name: their Home Assistant entities would share it")
            }
            if let answer = command.answer, characteristics.contains(where: { $0.uuid == answer.characteristic }) {
                throw DeclarationError(
                    file: file, line: item.line,
                    message: "the answer's characteristic is declared among characteristics: its values are answers")
            }
            commands.append(command)
        }
        return commands
    }

    private static func readCommand(_ node: YAMLNode, file: String) throws(DeclarationError) -> DeclaredCommand {
        let entry = try DeclarationMapping(
            node, file: file, what: "a command", keys: ["name", "uuid", "service", "write", "value", "answer"])
        let name = try entry.requiredText("name")
        guard TopicMap.isValidCommandName(name) else {
            throw entry.error(entry.value("name") ?? node, "name must be 1 to 64 lower-case letters, digits or _")
        }
        let uuid = try uuid(try entry.requiredText("uuid"), in: entry, key: "uuid")
        let service = try self.uuid(try entry.requiredText("service"), in: entry, key: "service")
        guard let value = entry.value("value"), case .sequence(let parts) = value.content, !parts.isEmpty else {
            throw entry.error(entry.value("value") ?? node, "value must be a list of one or more parts")
        }
        var command = DeclaredCommand(name: name, characteristic: uuid, service: service, parts: [])
        for part in parts { command.parts.append(try readPart(part, file: file, earlier: command.fieldNames)) }
        switch try entry.text("write") ?? "request" {
        case "request": command.withResponse = true
        case "command": command.withResponse = false
        case let other:
            throw entry.error(
                entry.value("write") ?? node,
                "write must be request or command, not '\(DeclarationMapping.shown(other))'")
        }
        if let answer = entry.value("answer") { command.answer = try readAnswer(answer, file: file) }
        return command
    }

    /// `{const: 0x05}` or `{const: [0x01, 0x02]}`; `{field: watts, type: s16, min: 0, max: 4000, scale: 1}`.
    private static func readPart(
        _ node: YAMLNode, file: String, earlier: [String]
    ) throws(DeclarationError) -> DeclaredCommand.Part {
        let entry = try DeclarationMapping(
            node, file: file, what: "a part of a command's value",
            keys: ["const", "field", "type", "min", "max", "scale", "offset"])
        if entry.value("const") != nil {
            guard entry.value("field") == nil else { throw entry.error(node, "a part is a const or a field, not both") }
            return .constant(try bytes(entry, key: "const"))
        }
        let name = try entry.requiredText("field")
        guard isName(name), !earlier.contains(name) else {
            throw entry.error(entry.value("field") ?? node, "field must be a name of its own (a-z, 0-9, _)")
        }
        let typeName = try entry.requiredText("type")
        guard let type = DeclaredFieldType(name: typeName), type.isInteger || type.isIEEE754 else {
            throw entry.error(
                entry.value("type") ?? node, "a command's field type is an integer (u8 … s64) or f32 or f64")
        }
        var scale = DecimalScale.one
        if let text = try entry.text("scale") {
            guard let parsed = DecimalScale(text), parsed.multiplier != 0 else {
                throw entry.error(entry.value("scale") ?? node, "scale must be a decimal number other than 0")
            }
            scale = parsed
        }
        let offset = try number(entry, key: "offset") ?? 0
        guard let low = try number(entry, key: "min"), let high = try number(entry, key: "max") else {
            throw entry.error(node, "a field needs min and max: every number a command writes is range-checked")
        }
        guard low <= high else { throw entry.error(entry.value("min") ?? node, "min must not be above max") }
        return .field(name: name, type: type, scale: scale, offset: offset, range: low...high)
    }

    private static func readAnswer(_ node: YAMLNode, file: String) throws(DeclarationError) -> DeclaredCommand.Answer {
        let entry = try DeclarationMapping(
            node, file: file, what: "a command's answer",
            keys: ["uuid", "prefix", "result_at", "success", "results", "timeout_s"])
        let uuid = try uuid(try entry.requiredText("uuid"), in: entry, key: "uuid")
        let prefix = try bytes(entry, key: "prefix")
        guard let at = integer(try entry.requiredText("result_at")), at >= prefix.count, at < 512 else {
            throw entry.error(
                entry.value("result_at") ?? node, "result_at must be the result code's byte, after the prefix")
        }
        guard let success = integer(try entry.requiredText("success")).flatMap(UInt8.init(exactly:)) else {
            throw entry.error(entry.value("success") ?? node, "success must be a byte, 0 to 255")
        }
        let seconds = try number(entry, key: "timeout_s") ?? 5
        guard (0.1...60).contains(seconds) else {
            throw entry.error(entry.value("timeout_s") ?? node, "timeout_s must be from 0.1 to 60")
        }
        return DeclaredCommand.Answer(
            characteristic: uuid, prefix: prefix, resultAt: Int(at), success: success,
            results: try readValues(entry.value("results"), in: entry), timeout: .milliseconds(Int(seconds * 1000)))
    }

    /// A byte or a list of them, 0 to 255 each (decimal or 0x), one or more.
    private static func bytes(_ entry: DeclarationMapping, key: String) throws(DeclarationError) -> [UInt8] {
        var bytes: [UInt8] = []
        for text in try entry.texts(key) {
            guard let byte = integer(text).flatMap(UInt8.init(exactly:)) else {
                throw entry.error(entry.value(key) ?? entry.node, "\(key) must be bytes, 0 to 255 (0x05)")
            }
            bytes.append(byte)
        }
        guard !bytes.isEmpty else { throw entry.error(entry.value(key) ?? entry.node, "\(key) must hold a byte") }
        return bytes
    }

    private static func number(_ entry: DeclarationMapping, key: String) throws(DeclarationError) -> Double? {
        guard let text = try entry.text(key) else { return nil }
        guard let value = integer(text).map(Double.init) ?? Double(text), value.isFinite else {
            throw entry.error(entry.value(key) ?? entry.node, "\(key) must be a number")
        }
        return value
    }
}
