/// The MQTT payload of a claim: compact JSON with a fixed field order, for example
/// `{"gateway":"gw-a","incarnation":3,"seq":41,"term":7,"state":"owner","rssi":-61,"free_slots":4}`.
///
/// The device key is not in the payload: it is part of the topic, and the caller passes it in.
/// The decoder is strict about the fields it knows (all required, right type, sane range, no
/// duplicates) and skips fields it does not know, so that a fleet can be upgraded one gateway at
/// a time when a later version adds a field.
public enum ClaimCodec {
    /// No valid claim comes near this size; a bigger payload is refused before it is parsed.
    public static let maximumPayloadBytes = 1024
    /// Counters stay within the integers every JSON reader (including JavaScript's) holds exactly.
    public static let maximumCounter: UInt64 = 9_007_199_254_740_991
    /// The RSSI range of the Bluetooth HCI (a signed byte, with +20 dBm the highest it reports).
    public static let rssiRange: ClosedRange<Int> = -127...20
    /// More slots than any adapter or proxy has (real ones hold 3 to 9).
    public static let freeSlotsRange: ClosedRange<Int> = 0...64
    /// Gateway names also appear in topics, so they keep to characters safe there.
    public static let maximumGatewayNameLength = 64

    /// Encodes a claim as its payload. A claim the decoder accepts encodes back to the same bytes.
    public static func encode(_ claim: Claim) -> String {
        var text = "{\"gateway\":"
        appendQuoted(claim.gateway, to: &text)
        text += ",\"incarnation\":\(claim.incarnation),\"seq\":\(claim.sequence),\"term\":\(claim.term)"
        text += ",\"state\":\"\(claim.state.rawValue)\",\"rssi\":"
        text += claim.rssi.map { String($0) } ?? "null"
        text += ",\"free_slots\":\(claim.freeSlots)}"
        return text
    }

    /// Decodes a payload received on the claim topic of `device`.
    public static func decode(_ payload: String, device: String) throws(ClaimDecodingError) -> Claim {
        try decode(bytes: Array(payload.utf8), device: device)
    }

    /// Decodes a payload, given as raw bytes, received on the claim topic of `device`.
    public static func decode(bytes payload: [UInt8], device: String) throws(ClaimDecodingError) -> Claim {
        guard !device.isEmpty else { throw .emptyDeviceKey }
        guard payload.count <= maximumPayloadBytes else {
            throw .tooLarge(bytes: payload.count, limit: maximumPayloadBytes)
        }
        var scanner = JSONObjectScanner(payload)
        let members = try scanner.scanTopLevelObject()
        // A claim has seven fields; a linear search beats hashing at that size.
        for (index, member) in members.enumerated() where members[..<index].contains(where: { $0.name == member.name })
        {
            throw .duplicateField(member.name)
        }
        let reader = FieldReader(members: members)
        let gateway = try reader.string("gateway")
        guard isValidGatewayName(gateway) else { throw .invalidGatewayName(gateway) }
        let stateName = try reader.string("state")
        guard let state = ClaimState(rawValue: stateName) else { throw .unknownState(stateName) }
        return Claim(
            gateway: gateway,
            device: device,
            incarnation: try reader.counter("incarnation"),
            sequence: try reader.counter("seq"),
            term: try reader.counter("term"),
            state: state,
            rssi: try reader.optionalInteger("rssi", in: rssiRange),
            freeSlots: try reader.integer("free_slots", in: freeSlotsRange)
        )
    }

    /// True when `name` can be a gateway name: 1 to 64 of `A-Z a-z 0-9 . _ -`.
    public static func isValidGatewayName(_ name: String) -> Bool {
        let utf8 = name.utf8
        return !utf8.isEmpty && utf8.count <= maximumGatewayNameLength
            && utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
    }

    /// JSON string quoting; valid gateway names never need escapes, but the encoder must still
    /// produce valid JSON for whatever it is given.
    private static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

/// Typed access to the scanned fields, with the error each misuse deserves.
private struct FieldReader {
    let members: [(name: String, value: ScannedValue)]

    private func value(_ name: String) -> ScannedValue? {
        members.first { $0.name == name }?.value
    }

    func string(_ name: String) throws(ClaimDecodingError) -> String {
        guard let value = value(name) else { throw .missingField(name) }
        guard case .string(let string) = value else { throw .wrongType(field: name, expected: "a string") }
        return string
    }

    func counter(_ name: String) throws(ClaimDecodingError) -> UInt64 {
        let allowed = "0...\(ClaimCodec.maximumCounter)"
        let number = try integerNumber(name)
        guard !number.isNegative, let magnitude = number.magnitude, magnitude <= ClaimCodec.maximumCounter else {
            throw .outOfRange(field: name, value: number.text, allowed: allowed)
        }
        return magnitude
    }

    func integer(_ name: String, in range: ClosedRange<Int>, expected: String = "an integer")
        throws(ClaimDecodingError) -> Int
    {
        let number = try integerNumber(name, expected: expected)
        let allowed = "\(range.lowerBound)...\(range.upperBound)"
        guard let magnitude = number.magnitude, magnitude <= UInt64(Int.max) else {
            throw .outOfRange(field: name, value: number.text, allowed: allowed)
        }
        let value = number.isNegative ? -Int(magnitude) : Int(magnitude)
        guard range.contains(value) else { throw .outOfRange(field: name, value: number.text, allowed: allowed) }
        return value
    }

    func optionalInteger(_ name: String, in range: ClosedRange<Int>) throws(ClaimDecodingError) -> Int? {
        guard let value = value(name) else { throw .missingField(name) }
        if case .null = value { return nil }
        return try integer(name, in: range, expected: "an integer or null")
    }

    private func integerNumber(_ name: String, expected: String = "an integer") throws(ClaimDecodingError)
        -> ScannedNumber
    {
        guard let value = value(name) else { throw .missingField(name) }
        guard case .number(let number) = value, number.isInteger else {
            throw .wrongType(field: name, expected: expected)
        }
        return number
    }
}
