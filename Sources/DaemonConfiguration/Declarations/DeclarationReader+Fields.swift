import Bridge
import Peripherals

/// The fields of a declared characteristic: each checked alone, then together (a condition names an earlier integer
/// field; a field that takes the rest of the value comes last; two fields share a name only as each other's
/// alternative, as Heart Rate's uint8 and uint16 rate).
extension DeclarationReader {
    /// `inJSONTopic`: the characteristic publishes one JSON object, retained as a whole (no field says otherwise).
    static func readFields(_ items: [YAMLNode], file: String, inJSONTopic: Bool) throws(DeclarationError)
        -> [DeclaredField]
    {
        var fields: [DeclaredField] = []
        for (index, item) in items.enumerated() {
            let entry = try DeclarationMapping(
                item, file: file, what: "a field",
                keys: [
                    "name", "type", "if", "repeated", "scale", "offset", "decimals", "unit", "values", "unlisted",
                    "bits",
                    "publish", "retain", "homeassistant",
                ])
            let name = try entry.requiredText("name")
            guard isLeaf(name) else { throw entry.error(entry.value("name") ?? item, "name \(leafRule)") }
            let typeName = try entry.requiredText("type")
            guard let type = DeclaredFieldType(name: typeName) else {
                throw entry.error(
                    entry.value("type") ?? item,
                    "type '\(DeclarationMapping.shown(typeName))' is none of \(DeclaredFieldType.names)")
            }
            var field = DeclaredField(name: name, type: type)
            field.repeated = try entry.flag("repeated") ?? false
            field.published = try entry.flag("publish") ?? true
            field.unit = try entry.text("unit")
            if let scale = try entry.text("scale") {
                guard let parsed = DecimalScale(scale), parsed.multiplier != 0 else {
                    throw entry.error(
                        entry.value("scale") ?? item,
                        "scale must be a decimal number other than 0 (0.01), not '\(DeclarationMapping.shown(scale))'")
                }
                field.scale = parsed
            }
            if let offset = try entry.text("offset") {
                guard let parsed = Double(offset), parsed.isFinite else {
                    throw entry.error(entry.value("offset") ?? item, "offset must be a number")
                }
                field.offset = parsed
            }
            if type == .utf8, field.scale != .one || field.offset != 0 || field.repeated {
                throw entry.error(item, "a utf8 field takes no scale, offset or repeated")
            }
            if let decimals = try entry.text("decimals") {
                guard let digits = Int(decimals), (0...9).contains(digits) else {
                    throw entry.error(entry.value("decimals") ?? item, "decimals must be a whole number from 0 to 9")
                }
                guard !type.isInteger || field.scale != .one || field.offset != 0, type != .utf8 else {
                    throw entry.error(
                        entry.value("decimals") ?? item, "decimals is for a scaled or floating-point field")
                }
                field.decimals = digits
            }
            field.enumeration = try readValues(entry.value("values"), in: entry)
            if let prefix = try entry.text("unlisted") {
                guard !field.enumeration.isEmpty, isName(prefix) else {
                    throw entry.error(
                        entry.value("unlisted") ?? item,
                        "unlisted is the prefix of a value `values` does not name (reserved_): lower-case letters, "
                            + "digits or _, with values")
                }
                field.unlisted = prefix
            }
            if let bits = entry.value("bits") {
                field.bits = try readBits(bits, of: field, in: entry, inJSONTopic: inJSONTopic)
            }
            if !field.enumeration.isEmpty || !field.bits.isEmpty, !type.isInteger {
                throw entry.error(item, "values and bits are for integer fields")
            }
            field.retain = try readRetain(entry, inJSONTopic: inJSONTopic)
            field.homeAssistant = try readEntity(entry, oneBit: false)
            for condition in try entry.texts("if") {
                field.conditions.append(try readCondition(condition, earlier: fields, in: entry))
            }
            let takesTheRest = field.repeated || type == .utf8
            if takesTheRest, index != items.count - 1 {
                throw entry.error(
                    item, "\(name) takes the rest of the value (repeated or utf8): it must be the last field")
            }
            if let twin = fields.first(where: { $0.name == name }), !areAlternatives(twin, field) {
                throw entry.error(
                    entry.value("name") ?? item,
                    "\(name) is given twice, and not as each other's alternative (if: f.N and if: not f.N)")
            }
            fields.append(field)
        }
        return fields
    }

    /// `flags.3` (bit 3 of the earlier field `flags` set) or `not flags.3` (clear); `if:` takes one or a list.
    private static func readCondition(
        _ text: String, earlier: [DeclaredField], in entry: DeclarationMapping
    ) throws(DeclarationError) -> DeclaredField.Condition {
        let node = entry.value("if") ?? entry.node
        let set = !text.hasPrefix("not ")
        let reference = set ? text : String(text.dropFirst(4))
        let parts = reference.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let bit = Int(parts[1]) else {
            throw entry.error(
                node, "if must be FIELD.BIT or not FIELD.BIT (flags.0), not '\(DeclarationMapping.shown(text))'")
        }
        let name = String(parts[0])
        guard let field = earlier.last(where: { $0.name == name }), field.type.isInteger, !field.repeated else {
            throw entry.error(node, "if: '\(DeclarationMapping.shown(name))' is no earlier integer field")
        }
        guard bit >= 0, bit < 8 * (field.type.size ?? 0) else {
            throw entry.error(node, "if: \(name) has no bit \(bit)")
        }
        return DeclaredField.Condition(field: name, bit: bit, set: set)
    }

    /// `{0: unknown, 1: chest}`: raw value → name.
    static func readValues(_ node: YAMLNode?, in entry: DeclarationMapping) throws(DeclarationError) -> [Int64:
        String]
    {
        guard let node else { return [:] }
        guard case .mapping(let pairs) = node.content else {
            throw entry.error(node, "values must be a mapping (1: chest)")
        }
        var values: [Int64: String] = [:]
        for pair in pairs {
            guard case .scalar(let key, _) = pair.key.content, let raw = integer(key),
                case .scalar(let name, _) = pair.value.content, DeviceOptions.isValidName(name)
            else { throw entry.error(pair.key, "values: each must be an integer and a name of 1 to 64 characters") }
            guard values.updateValue(name, forKey: raw) == nil else {
                throw entry.error(pair.key, "values: \(raw) is given twice")
            }
        }
        return values
    }

    /// A field's or a bit field's own `retain`: only where it has a leaf of its own.
    private static func readRetain(_ entry: DeclarationMapping, inJSONTopic: Bool) throws(DeclarationError) -> Bool? {
        guard let retain = try entry.flag("retain") else { return nil }
        guard !inJSONTopic else {
            throw entry.error(
                entry.value("retain") ?? entry.node,
                "retain: a field of a characteristic with a topic is retained as its topic is")
        }
        return retain
    }

    /// `- {name: contact, at: 1, width: 2, values: {2: lost, 3: detected}, retain: true}`.
    private static func readBits(
        _ node: YAMLNode, of field: DeclaredField, in entry: DeclarationMapping, inJSONTopic: Bool
    ) throws(DeclarationError) -> [DeclaredField.BitField] {
        guard case .sequence(let items) = node.content else { throw entry.error(node, "bits must be a list") }
        let width = 8 * (field.type.size ?? 0)
        var bits: [DeclaredField.BitField] = []
        for item in items {
            let bit = try DeclarationMapping(
                item, file: entry.file, what: "a bit field",
                keys: ["name", "at", "width", "values", "retain", "homeassistant"])
            let name = try bit.requiredText("name")
            guard isLeaf(name) else { throw bit.error(item, "name \(leafRule)") }
            guard let at = Int(try bit.requiredText("at")), let size = Int(try bit.text("width") ?? "1"),
                at >= 0, size >= 1, at + size <= width
            else { throw bit.error(item, "\(name): at and width must lie within the field's \(width) bits") }
            var bitField = DeclaredField.BitField(
                name: name, offset: at, width: size, enumeration: try readValues(bit.value("values"), in: bit),
                retain: try readRetain(bit, inJSONTopic: inJSONTopic))
            bitField.homeAssistant = try readEntity(bit, oneBit: size == 1 && bitField.enumeration.isEmpty)
            bits.append(bitField)
        }
        return bits
    }

    /// The same name under opposite conditions on one bit: at most one of them is in any value.
    private static func areAlternatives(_ one: DeclaredField, _ other: DeclaredField) -> Bool {
        one.conditions.contains { a in
            other.conditions.contains { b in a.field == b.field && a.bit == b.bit && a.set != b.set }
        }
    }
}
