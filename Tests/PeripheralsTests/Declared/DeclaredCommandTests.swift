import Peripherals
import Testing

/// A declared command's value: constants and the payload's numbers, each range-checked, encoded as their types say.
struct DeclaredCommandTests {
    private func command(_ parts: [DeclaredCommand.Part]) -> DeclaredCommand {
        DeclaredCommand(name: "c", characteristic: "x", service: "y", parts: parts)
    }

    private func field(
        _ name: String, _ type: DeclaredFieldType, scale: DecimalScale = .one, offset: Double = 0,
        _ range: ClosedRange<Double>
    ) -> DeclaredCommand.Part {
        .field(name: name, type: type, scale: scale, offset: offset, range: range)
    }

    /// CSCS 3.4: Set Cumulative Value, op code 0x01 and a uint32.
    @Test func anOpCodeAndAUInt32AsTheSpecificationLaysThemOut() throws {
        let set = command([
            .constant([0x01]), field("revolutions", .unsigned(bytes: 4, bigEndian: false), 0...4_294_967_295),
        ])
        #expect(try set.encode(["revolutions": 1000]) == [0x01, 0xE8, 0x03, 0x00, 0x00])
        #expect(try set.encode(["revolutions": 4_294_967_295]) == [0x01, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(set.fieldNames == ["revolutions"])
    }

    /// FTMS 4.16: Set Target Power, op code 0x05 and a sint16 in watts; a resistance level in steps of 0.1.
    @Test func scaledSignedAndBigEndianValues() throws {
        let power = command([.constant([0x05]), field("watts", .signed(bytes: 2, bigEndian: false), -100...4000)])
        #expect(try power.encode(["watts": -20]) == [0x05, 0xEC, 0xFF])
        let resistance = command([
            .constant([0x04]),
            field(
                "level", .unsigned(bytes: 1, bigEndian: false), scale: DecimalScale(multiplier: 1, exponent: -1), 0...25
            ),
        ])
        #expect(try resistance.encode(["level": 21.5]) == [0x04, 215])
        #expect(throws: DeclaredCommandError(field: "level", reason: .notAStep)) {
            try resistance.encode(["level": 21.55])
        }
        let wide = command([field("v", .unsigned(bytes: 2, bigEndian: true), offset: 100, 0...70000)])
        #expect(try wide.encode(["v": 356]) == [0x01, 0x00], "(356 − 100) big-endian")
        #expect(throws: DeclaredCommandError(field: "v", reason: .doesNotFit)) { try wide.encode(["v": 70000]) }
        let float = command([field("f", .float32(bigEndian: false), -1...1)])
        #expect(try float.encode(["f": 0.5]) == [0x00, 0x00, 0x00, 0x3F])
    }

    @Test func aNumberMissingOrOutOfItsRangeIsRefusedAndSaid() throws {
        let set = command([.constant([0x01]), field("revolutions", .unsigned(bytes: 4, bigEndian: false), 0...100)])
        #expect(throws: DeclaredCommandError(field: "revolutions", reason: .missing)) { try set.encode([:]) }
        #expect(throws: DeclaredCommandError(field: "revolutions", reason: .outOfRange(0...100))) {
            try set.encode(["revolutions": 101])
        }
        #expect(throws: DeclaredCommandError(field: "revolutions", reason: .outOfRange(0...100))) {
            try set.encode(["revolutions": .nan])
        }
        #expect(
            DeclaredCommandError(field: "revolutions", reason: .outOfRange(0...100)).description
                == "'revolutions' must be from 0 to 100")
        let largest = command([field("n", .unsigned(bytes: 8, bigEndian: false), 0...1e20)])
        #expect(throws: DeclaredCommandError(field: "n", reason: .doesNotFit)) {
            try largest.encode(["n": 18_446_744_073_709_551_616])
        }
        #expect(try largest.encode(["n": 9_007_199_254_740_992]) == [0, 0, 0, 0, 0, 0, 0x20, 0])
    }

    /// The control point's answer: the response code and the request's op code, with the result after them.
    @Test func anAnswerIsTheIndicationThatStartsWithItsPrefix() {
        let answer = DeclaredCommand.Answer(
            characteristic: "cp", prefix: [0x10, 0x01], resultAt: 2, success: 1, results: [:], timeout: .seconds(5))
        #expect(answer.answers([0x10, 0x01, 0x01], on: "cp"))
        #expect(!answer.answers([0x10, 0x03, 0x01], on: "cp"), "another request's")
        #expect(!answer.answers([0x10, 0x01], on: "cp"), "no result")
        #expect(!answer.answers([0x10, 0x01, 0x01], on: "other"))
    }

    /// What the simulator makes of a write, from the specification.
    @Test func theSCControlPointsRequestsAndResponses() {
        #expect(SCControlPoint.request([0x01, 0xE8, 0x03, 0, 0]) == .setCumulativeValue(1000))
        #expect(SCControlPoint.request([0x03, 5]) == .updateSensorLocation(5))
        #expect(SCControlPoint.request([0x01, 0xE8]) == .other(opCode: 0x01))
        #expect(SCControlPoint.response(to: 0x03, .opCodeNotSupported) == [0x10, 0x03, 0x02])
    }
}
