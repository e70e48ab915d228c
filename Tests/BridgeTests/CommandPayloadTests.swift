import Testing

@testable import Bridge

struct CommandPayloadTests {
    @Test(arguments: [
        ("app", "value", JSONValue.string("app")),
        ("\"app\"", "value", .string("app")),
        ("42", "value", .number(42)),
        ("{\"mode\":\"app\"}", "mode", .string("app")),
        ("  {\"mode\" : \"wait\"}\n", "mode", .string("wait")),
    ])
    func acceptsObjectsAndPlainScalars(text: String, field: String, expected: JSONValue) throws {
        let payload = try CommandPayload(bytes: Array(text.utf8))
        #expect(payload.fields[field] == expected)
    }

    @Test func takesTheTransactionOutOfTheFields() throws {
        let payload = try CommandPayload(bytes: Array(#"{"mode":"app","transaction":"t-17"}"#.utf8))
        #expect(payload.transaction == .string("t-17"))
        #expect(payload.fields == ["mode": .string("app")])
    }

    @Test(arguments: [
        ([UInt8]("{\"mode\":".utf8), "not valid JSON"),
        ([UInt8]("[1,2]".utf8), "not an array"),
        ([0xFF, 0xFE, 0x41], "not valid UTF-8"),
        (
            [UInt8](String(repeating: "[", count: 40).utf8) + [UInt8](String(repeating: "]", count: 40).utf8),
            "nests deeper"
        ),
        ([UInt8](repeating: 0x20, count: 17 * 1024), "the limit is"),
        ([UInt8]("{\"x\":NaN}".utf8), "not valid JSON"),
    ])
    func refusesMalformedPayloadsWithAReason(bytes: [UInt8], reason: String) {
        #expect {
            _ = try CommandPayload(bytes: bytes)
        } throws: { error in
            guard let error = error as? CommandError else { return false }
            return error.code == .invalidPayload && error.message.contains(reason)
        }
    }

    @Test func typedFieldsNameTheFieldInTheirErrors() throws {
        let payload = try CommandPayload(bytes: Array(#"{"intensity":"high","direction":400.5,"channel":9}"#.utf8))
        #expect(throws: CommandError(.invalidValue, "'intensity' must be a whole number")) {
            _ = try payload.optionalInteger("intensity", in: 0...100)
        }
        #expect(throws: CommandError(.invalidValue, "'direction' must be a whole number")) {
            _ = try payload.optionalInteger("direction", in: 0...359)
        }
        #expect(throws: CommandError(.invalidValue, "'channel' must be between 0 and 5")) {
            _ = try payload.optionalInteger("channel", in: 0...5)
        }
        #expect(throws: CommandError(.invalidValue, "unknown field 'channel'")) {
            try payload.rejectUnknownFields(allowed: ["intensity", "direction"])
        }
    }
}
