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

/// A key given twice (issue #56): JSONDecoder kept one of the two values and said nothing, so
/// `{"duration_s":10,"duration_s":3600}` opened a join window of whichever it picked. Now such a payload is refused,
/// whatever the depth and however the key is spelled.
struct DuplicateKeyTests {
    @Test(arguments: [
        (#"{"duration_s":10,"duration_s":3600}"#, "duration_s"),
        (#"{"options":{"devices":{"allow":[]},"devices":{"auto_connect":"all"}}}"#, "devices"),
        (#"{"a":[{"b":1},{"b":1,"b":2}]}"#, "b"),
        (#"{"mode":"app","\u006dode":"wait"}"#, "mode"),
        (#"{"\ud83d\ude00":1, "😀" :2}"#, "😀"),
        // Swift compares strings by canonical equivalence, as the decoder's dictionary does: é and e + ◌́ are one key.
        ("{\"caf\u{E9}\":1,\"cafe\u{301}\":2}", "caf\u{E9}"),
    ])
    func aKeyGivenTwiceIsRefused(text: String, key: String) {
        #expect(DuplicateKeys.first(in: Array(text.utf8)) == key)
        #expect(throws: CommandError(.invalidPayload, "payload has the key '\(key)' twice")) {
            _ = try CommandPayload(bytes: Array(text.utf8))
        }
    }

    @Test(arguments: [
        #"{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}"#,
        #"{"a":"\"a\":1,\"a\":2","b":"}{"}"#,
        #"{"x":[1,-2.5e3,true,false,null,"a\\"],"y":{}}"#,
    ])
    func theSameKeyInDifferentObjectsIsNoDuplicate(text: String) throws {
        #expect(DuplicateKeys.first(in: Array(text.utf8)) == nil)
        _ = try CommandPayload(bytes: Array(text.utf8))
    }
}
