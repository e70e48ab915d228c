import Peripherals

/// What a declared characteristic publishes, by leaf (docs/devices.md): pure, so that every payload is tested
/// byte for byte.
enum DeclaredLeaves {
    /// One value's decoded fields: one JSON object on the characteristic's topic, its fields in declaration order, or
    /// each field alone on a leaf of its name. A retained leaf is state (retained, QoS 1, sent when it changes), any
    /// other a stream's values (QoS 0): a JSON topic as its characteristic says, a field's leaf as its field does.
    static func leaves(of fields: [DecodedField], from characteristic: DeclaredCharacteristic) -> [LeafOutput] {
        func output(_ leaf: String, _ payload: String, retained: Bool) -> LeafOutput {
            retained ? .state(leaf, payload) : .value(leaf, payload, qos: 0)
        }
        if let topic = characteristic.topic {
            // One string grown in place; the names need no escape (the reader takes a-z, 0-9 and _ only).
            var text = "{"
            text.reserveCapacity(24 * fields.count + 2)
            for (index, field) in fields.enumerated() {
                if index > 0 { text += "," }
                text += "\"" + field.name + "\":" + json(field.value)
            }
            return [output(topic, text + "}", retained: characteristic.retain)]
        }
        return fields.map { output($0.name, text($0.value), retained: $0.retain ?? characteristic.retain) }
    }

    /// A value alone on its leaf: a text or an IEEE 11073 special value as it is (`NaN`), anything else as JSON.
    static func text(_ value: DeclaredValue) -> String {
        switch value {
        case .text(let text), .special(let text): text
        default: json(value)
        }
    }

    /// A value as JSON: integers exactly (a u64's too, which a double would round), numbers as the shortest decimal
    /// that reads back, texts quoted and escaped.
    static func json(_ value: DeclaredValue) -> String {
        switch value {
        case .integer(let integer): String(integer)
        case .unsignedInteger(let integer): String(integer)
        case .number(let number): JSONValue.number(number).text
        case .text(let text), .special(let text): JSONValue.quoted(text)
        case .flag(let flag): flag ? "true" : "false"
        case .list(let items): "[" + items.map(json).joined(separator: ",") + "]"
        }
    }
}
