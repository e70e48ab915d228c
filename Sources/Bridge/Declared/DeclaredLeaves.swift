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
            // UTF-8 bytes grown in place and made a string once: a String appended to per piece spent about 500
            // instructions an append, and each `+` a temporary (the JSON was half the notification path). The names
            // need no escape (the reader takes a-z, 0-9 and _ only).
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32 * fields.count + 2)
            bytes.append(UInt8(ascii: "{"))
            for index in fields.indices {
                bytes.append(contentsOf: index == 0 ? #"""#.utf8 : #",""#.utf8)
                bytes.append(contentsOf: fields[index].name.utf8)
                bytes.append(contentsOf: #"":"#.utf8)
                appendJSON(fields[index].value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
            return [output(topic, String(decoding: bytes, as: UTF8.self), retained: characteristic.retain)]
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

    /// `json(value)`'s bytes, an integer's digits written in place (no string of their own).
    static func appendJSON(_ value: DeclaredValue, to bytes: inout [UInt8]) {
        switch value {
        case .integer(let integer):
            var text = ShortText()
            text.pushInteger(integer)
            text.append(to: &bytes)
        case .unsignedInteger(let integer):
            var text = ShortText()
            text.pushDigits(integer)
            text.append(to: &bytes)
        case .flag(let flag): bytes.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        default: bytes.append(contentsOf: json(value).utf8)
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
