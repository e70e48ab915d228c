import Fleet
import TestSupport
import Testing

@Suite("Claim codec")
struct ClaimCodecTests {
    static let example =
        #"{"gateway":"gw-a","incarnation":3,"seq":41,"term":7,"state":"owner","rssi":-61,"free_slots":4}"#
    static let exampleClaim = Claim(
        gateway: "gw-a",
        device: "belt/aabbccddeeff",
        incarnation: 3,
        sequence: 41,
        term: 7,
        state: .owner,
        rssi: -61,
        freeSlots: 4
    )

    @Test("encodes the documented example byte for byte")
    func encodesExample() {
        #expect(ClaimCodec.encode(Self.exampleClaim) == Self.example)
    }

    @Test("decodes the documented example, taking the device key from the caller")
    func decodesExample() throws {
        #expect(try ClaimCodec.decode(Self.example, device: "belt/aabbccddeeff") == Self.exampleClaim)
        #expect(try ClaimCodec.decode(Self.example, device: "other/1").device == "other/1")
    }

    @Test(
        "round-trips byte for byte",
        arguments: [
            #"{"gateway":"gw-a","incarnation":3,"seq":41,"term":7,"state":"owner","rssi":-61,"free_slots":4}"#,
            #"{"gateway":"kitchen.pi_2","incarnation":0,"seq":0,"term":0,"state":"candidate","rssi":null,"free_slots":0}"#,
            #"{"gateway":"Z","incarnation":9007199254740991,"seq":9007199254740991,"term":9007199254740991,"state":"released","rssi":-127,"free_slots":64}"#,
            #"{"gateway":"gw-b","incarnation":1,"seq":2,"term":3,"state":"candidate","rssi":20,"free_slots":1}"#,
            #"{"gateway":"gw-c","incarnation":1,"seq":2,"term":3,"state":"owner","rssi":0,"free_slots":5}"#,
        ]
    )
    func roundTrips(payload: String) throws {
        #expect(ClaimCodec.encode(try ClaimCodec.decode(payload, device: "d/1")) == payload)
    }

    @Test("accepts whitespace, any field order, escapes and unknown fields of any shape")
    func acceptsLenientLayout() throws {
        let payload = """
             { "free_slots" : 4 , "rssi":-61,"state":"owner", "term":7,"seq":41,
            "incarnation":3, "gateway":"gw\\u002da", "added_later": {"x":[1,2.5e3,true,null,"\\ud83d\\ude00"]} }\t
            """
        #expect(try ClaimCodec.decode(payload, device: "belt/aabbccddeeff") == Self.exampleClaim)
    }

    @Test("accepts a payload given as bytes")
    func decodesBytes() throws {
        #expect(
            try ClaimCodec.decode(bytes: Array(Self.example.utf8), device: "belt/aabbccddeeff") == Self.exampleClaim)
    }

    @Test(
        "reports a missing field by name",
        arguments: ["gateway", "incarnation", "seq", "term", "state", "rssi", "free_slots"]
    )
    func rejectsMissingField(field: String) {
        let payload = Self.example.replacingField(field, with: nil)
        #expect(throws: ClaimDecodingError.missingField(field)) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test(
        "rejects a value of the wrong type",
        arguments: [
            ("gateway", "7", "a string"),
            ("incarnation", #""3""#, "an integer"),
            ("seq", "41.0", "an integer"),
            ("term", "7e0", "an integer"),
            ("state", "null", "a string"),
            ("rssi", "true", "an integer or null"),
            ("rssi", "-61.5", "an integer or null"),
            ("free_slots", "[4]", "an integer"),
            ("free_slots", "null", "an integer"),
        ]
    )
    func rejectsWrongType(field: String, value: String, expected: String) {
        let payload = Self.example.replacingField(field, with: value)
        #expect(throws: ClaimDecodingError.wrongType(field: field, expected: expected)) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test(
        "rejects negative and absurd numbers",
        arguments: [
            ("incarnation", "-1"),
            ("seq", "-0"),
            ("term", "9007199254740992"),
            ("term", "18446744073709551616"),
            ("seq", "123456789012345678901234567890"),
            ("rssi", "21"),
            ("rssi", "-128"),
            ("rssi", "-99999999999999999999"),
            ("free_slots", "-1"),
            ("free_slots", "65"),
        ]
    )
    func rejectsOutOfRange(field: String, value: String) {
        let payload = Self.example.replacingField(field, with: value)
        #expect {
            try ClaimCodec.decode(payload, device: "d/1")
        } throws: { error in
            guard case .outOfRange(let reported, let text, _) = error as? ClaimDecodingError else { return false }
            return reported == field && text == value
        }
    }

    @Test("rejects unknown state names, including other cases", arguments: ["leader", "Owner", "", "owner "])
    func rejectsUnknownState(state: String) {
        let payload = Self.example.replacingField("state", with: "\"\(state)\"")
        #expect(throws: ClaimDecodingError.unknownState(state)) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test(
        "rejects gateway names that are empty, too long or unsafe in a topic",
        arguments: ["", "gw/a", "gw+", "gw#", "gw a", "gwé", String(repeating: "g", count: 65)]
    )
    func rejectsGatewayName(name: String) {
        let payload = Self.example.replacingField("gateway", with: "\"\(name)\"")
        #expect(throws: ClaimDecodingError.invalidGatewayName(name)) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test("accepts a gateway name of exactly 64 characters")
    func acceptsLongestGatewayName() throws {
        let name = String(repeating: "g", count: 64)
        let payload = Self.example.replacingField("gateway", with: "\"\(name)\"")
        #expect(try ClaimCodec.decode(payload, device: "d/1").gateway == name)
    }

    @Test("rejects a duplicated field")
    func rejectsDuplicate() {
        let payload = Self.example.replacing("}", with: #","term":8}"#)
        #expect(throws: ClaimDecodingError.duplicateField("term")) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test("rejects an empty device key")
    func rejectsEmptyDevice() {
        #expect(throws: ClaimDecodingError.emptyDeviceKey) {
            try ClaimCodec.decode(Self.example, device: "")
        }
    }

    @Test("rejects JSON that is not an object", arguments: ["[1,2]", "\"owner\"", "42", "null"])
    func rejectsNonObject(payload: String) {
        #expect(throws: ClaimDecodingError.notAnObject) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test("rejects oversized payloads before parsing them")
    func rejectsOversized() {
        let payload = Self.example.replacing(
            "}",
            with: ",\"pad\":\"\(String(repeating: "x", count: 1024))\"}"
        )
        #expect(throws: ClaimDecodingError.tooLarge(bytes: payload.utf8.count, limit: 1024)) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test(
        "rejects malformed JSON with the byte offset where reading stopped",
        arguments: [
            ("", 0),
            ("{", 1),
            (#"{"gateway":"gw-a",}"#, 18),
            (#"{"gateway" "gw-a"}"#, 11),
            (#"{"gateway":"gw-a"} x"#, 19),
            (#"{"term":07}"#, 9),
            (#"{"term":1.}"#, 10),
            (#"{"term":-}"#, 9),
            (#"{"term":tru}"#, 8),
            (#"{"gateway":"gw\qa"}"#, 16),
            (#"{"gateway":"\ud800"}"#, 18),
            (#"{"gateway":"\udc00"}"#, 18),
            (#"{"gateway":"\u12g4"}"#, 16),
            ("{\"gateway\":\"gw\u{1}a\"}", 15),
            (#"{'gateway':1}"#, 1),
        ]
    )
    func rejectsMalformed(payload: String, offset: Int) {
        #expect {
            try ClaimCodec.decode(payload, device: "d/1")
        } throws: { error in
            guard case .malformed(let at, _) = error as? ClaimDecodingError else { return false }
            return at == offset
        }
    }

    @Test("rejects invalid UTF-8 inside a string")
    func rejectsInvalidUTF8() {
        var bytes = Array(Self.example.utf8)
        let index = bytes.firstIndex(of: UInt8(ascii: "-"))!  // inside "gw-a"
        bytes[index] = 0xC3
        #expect {
            try ClaimCodec.decode(bytes: bytes, device: "d/1")
        } throws: { error in
            guard case .malformed(_, let reason) = error as? ClaimDecodingError else { return false }
            return reason.contains("UTF-8")
        }
    }

    @Test("refuses nesting deeper than 16 levels, so a hostile payload cannot exhaust the stack")
    func rejectsDeepNesting() throws {
        // The claim object is level 1, so 15 brackets reach level 16 and 16 brackets level 17.
        func payload(brackets: Int) -> String {
            Self.example.replacing(
                "}",
                with: ",\"x\":" + String(repeating: "[", count: brackets) + String(repeating: "]", count: brackets)
                    + "}"
            )
        }
        #expect(try ClaimCodec.decode(payload(brackets: 15), device: "d/1") == Self.exampleClaim.withDevice("d/1"))
        #expect {
            try ClaimCodec.decode(payload(brackets: 16), device: "d/1")
        } throws: { error in
            guard case .malformed(_, let reason) = error as? ClaimDecodingError else { return false }
            return reason.contains("nested deeper than 16")
        }
    }

    @Test("error messages name the field and the rule")
    func describesErrors() {
        #expect(ClaimDecodingError.missingField("rssi").description == #"claim field "rssi" is missing"#)
        #expect(
            ClaimDecodingError.outOfRange(field: "rssi", value: "21", allowed: "-127...20").description
                == #"claim field "rssi" is 21, outside -127...20"#
        )
        #expect(ClaimDecodingError.unknownState("leader").description.contains("candidate, owner, released"))
    }

    @Test("the encoder escapes what JSON requires, so even an invalid name yields valid JSON")
    func escapesStrings() {
        var claim = Self.exampleClaim
        claim.gateway = "a\"b\\c\n\u{1}"
        let payload = ClaimCodec.encode(claim)
        #expect(payload.hasPrefix(#"{"gateway":"a\"b\\c\n\u0001","#))
        #expect(throws: ClaimDecodingError.invalidGatewayName("a\"b\\c\n\u{1}")) {
            try ClaimCodec.decode(payload, device: "d/1")
        }
    }

    @Test("every strict prefix of a valid payload is rejected, never accepted or crashing")
    func rejectsEveryPrefix() {
        let bytes = Array(Self.example.utf8)
        for length in 0..<bytes.count {
            #expect(throws: ClaimDecodingError.self) {
                try ClaimCodec.decode(bytes: Array(bytes[..<length]), device: "d/1")
            }
        }
    }

    @Test("random valid claims round-trip (seeded)", arguments: [UInt64(1), 2, 3, 4])
    func randomRoundTrips(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let nameCharacters = Array("ABCXYZabcxyz0189._-")
        for _ in 0..<250 {
            let claim = Claim(
                gateway: String((0..<random.integer(in: 1...64)).map { _ in random.element(of: nameCharacters) }),
                device: "d/1",
                incarnation: random.next() % (ClaimCodec.maximumCounter + 1),
                sequence: random.next() % 1000,
                term: random.next() % (ClaimCodec.maximumCounter + 1),
                state: random.element(of: ClaimState.allCases),
                rssi: random.chance(0.2) ? nil : random.integer(in: ClaimCodec.rssiRange),
                freeSlots: random.integer(in: ClaimCodec.freeSlotsRange)
            )
            let payload = ClaimCodec.encode(claim)
            #expect(try ClaimCodec.decode(payload, device: "d/1") == claim, "seed \(seed): \(payload)")
        }
    }

    @Test(
        "random byte corruption is either rejected or decodes to a claim that re-encodes (seeded)",
        arguments: [UInt64(11), 12])
    func corruptionNeverCrashes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let original = Array(Self.example.utf8)
        var rejected = 0
        for _ in 0..<500 {
            var bytes = original
            for _ in 0..<random.integer(in: 1...3) {
                bytes[random.integer(in: 0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                let claim = try ClaimCodec.decode(bytes: bytes, device: "d/1")
                #expect(try ClaimCodec.decode(ClaimCodec.encode(claim), device: "d/1") == claim, "seed \(seed)")
            } catch {
                rejected += 1
            }
        }
        #expect(rejected > 0, "seed \(seed): corruption was never detected")
    }
}

extension String {
    /// The payload with one top-level field's value replaced, or the field removed when nil.
    func replacingField(_ field: String, with value: String?) -> String {
        let marker = "\"\(field)\":"
        guard let start = firstRange(of: marker) else { return self }
        var end = start.upperBound
        var inString = false
        var previous: Character = " "
        while end < endIndex {
            let character = self[end]
            if character == "\"" && previous != "\\" { inString.toggle() }
            if !inString && (character == "," || character == "}") { break }
            previous = character
            end = index(after: end)
        }
        guard let value else {
            // Drop the field and one adjacent comma.
            if self[end] == "," { return String(self[..<start.lowerBound] + self[index(after: end)...]) }
            let comma = self[..<start.lowerBound].lastIndex(of: ",")!
            return String(self[..<comma] + self[end...])
        }
        return String(self[..<start.upperBound] + value + self[end...])
    }
}

extension Claim {
    func withDevice(_ device: String) -> Claim {
        var claim = self
        claim.device = device
        return claim
    }
}
