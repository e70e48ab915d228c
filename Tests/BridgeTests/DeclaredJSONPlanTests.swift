import DaemonConfiguration
import Foundation
import TestSupport
import Testing

@testable import Bridge
@testable import Peripherals

/// `DeclaredJSONPlan`, the compiled JSON of a declared stream, against the path it replaces on streams
/// (`DeclaredDecoder.decode` then `DeclaredLeaves.leaves`): the same payload or the same error for every shipped
/// declaration's JSON characteristics, the heart rate fixture's and docs/devices.md's thermometer's, on values a
/// device sends and on random bytes; and `ExactDecimal` against the double's JSON text it stands for.
@Suite struct DeclaredJSONPlanTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every declaration here: the shipped ones, the heart rate fixture.
    private static func declarations() throws -> [DeviceDeclaration] {
        let folder = root.appendingPathComponent("declarations").path
        let shipped = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
            .sorted().map { folder + "/" + $0 }
        let fixture = root.appendingPathComponent("Tests/BridgeTests/Fixtures/heart_rate.yaml").path
        return try (shipped + [fixture]).map { try DeclarationReader.read(file: $0, takenFamilies: []) }
            + [DeclaredFamilyTests.thermometer]
    }

    /// The old path's outcome: the payload, or the error's text.
    private static func expected(_ bytes: [UInt8], _ characteristic: DeclaredCharacteristic) -> String {
        do {
            let fields = try DeclaredDecoder.decode(
                bytes, fields: characteristic.fields, characteristic: characteristic.uuid)
            return "\(DeclaredLeaves.leaves(of: fields, from: characteristic))"
        } catch {
            return "error: \(error)"
        }
    }

    private static func planned(_ bytes: [UInt8], _ plan: DeclaredJSONPlan) -> String {
        do {
            return "\(try plan.leaves(of: bytes))"
        } catch {
            return "error: \(error)"
        }
    }

    /// Tens of thousands of values, seconds of processor time in a debug build: computed on a thread of its own
    /// (`onOwnThread`), not on one of the two threads every other test's tasks share. Run there, this test and the
    /// decimals' below left the in-memory run's other tasks no thread for seven seconds, and a connection scope's
    /// five-second close failed by chance.
    @Test func everyDeclaredStreamGivesTheDecodersBytesOrItsError() async throws {
        let declarations = try Self.declarations()
        let outcome = await onOwnThread { Self.compareEveryStream(declarations) }
        #expect(outcome.mismatches.isEmpty, "\(outcome.mismatches.count) differ: \(outcome.mismatches.prefix(5))")
        // Not only refusals: thousands of values decode.
        #expect(
            outcome.compared > 50_000 && outcome.decoded > 2_000,
            "\(outcome.decoded) of \(outcome.compared) decoded")
    }

    /// Both paths on every JSON characteristic of `declarations`: the values where they differ, how many were compared
    /// and how many decoded.
    private static func compareEveryStream(_ declarations: [DeviceDeclaration]) -> (
        mismatches: [String], compared: Int, decoded: Int
    ) {
        var random = SplitMix64(seed: 0x5EED_D0C5)
        var mismatches: [String] = []
        var compared = 0
        var decoded = 0
        for declaration in declarations {
            for characteristic in declaration.characteristics {
                guard let plan = DeclaredJSONPlan(characteristic) else { continue }
                // Every flags value of the first nine bits, followed by random bytes of every length to 20 (for each,
                // the one length its fields take decodes), then random bytes and the longest refused.
                var inputs: [[UInt8]] = []
                for flags in 0..<512 {
                    for length in 0...20 {
                        inputs.append([UInt8(flags & 0xFF), UInt8(flags >> 8)] + random.bytes(length))
                    }
                }
                inputs += (0..<2_000).map { _ in random.bytes(Int(random.next() % 41)) }
                inputs.append([UInt8](repeating: 0xFF, count: DeclaredDecoder.maximumByteCount + 1))
                // The values each field may take at the end of a value the length of its fields: flags cleared, so
                // that the unconditional fields carry extremes.
                for fill: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
                    for length in 0...24 { inputs.append([0, 0] + [UInt8](repeating: fill, count: length)) }
                }
                for bytes in inputs {
                    let old = expected(bytes, characteristic)
                    let new = planned(bytes, plan)
                    if new != old {
                        mismatches.append("\(declaration.family) \(characteristic.uuid) \(bytes): \(new) != \(old)")
                    }
                    compared += 1
                    if !old.hasPrefix("error") { decoded += 1 }
                }
            }
        }
        return (mismatches, compared, decoded)
    }

    /// `ExactDecimal`'s text of `value × scale`, or nil where it writes none; and whether it kept its word (nothing
    /// written when it says so).
    private static func exact(_ value: Int64, _ scale: DecimalScale) -> (text: String?, honest: Bool) {
        var text = ShortText()
        let wrote = ExactDecimal.write(value, scaledBy: scale, into: &text)
        var bytes: [UInt8] = []
        text.append(to: &bytes)
        return (wrote ? String(decoding: bytes, as: UTF8.self) : nil, wrote || bytes.isEmpty)
    }

    /// Scaled integers' digits are the double's text: at random, and at the bounds where the text takes an exponent.
    /// On a thread of its own, as the test above.
    @Test func exactDecimalsAreTheDoublesText() async {
        let mismatches = await onOwnThread { Self.exactMismatches() }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ: \(mismatches.prefix(5))")
    }

    private static func exactMismatches() -> [String] {
        var random = SplitMix64(seed: 0xDEC1_4A15)
        let scales = [
            "0.01", "0.1", "0.5", "0.001", "0.005", "0.03125", "0.00048828125", "0.0009765625", "0.00390625", "100",
            "-1.5", "10", "0.000001", "1000000", "0.25", "0.000000001",
        ].compactMap(DecimalScale.init)
        var values: [Int64] = [
            0, 1, -1, 9, 10, 99, 100, 999_999_999_999_999, -999_999_999_999_999, Int64.max, Int64.min,
        ]
        values += (0..<4_000).map { _ in
            let raw = Int64(bitPattern: random.next())
            // Mostly the sizes fields have: 8 to 32 bits.
            switch random.next() % 4 {
            case 0: return raw % 256
            case 1: return raw % 65_536
            case 2: return raw % 4_294_967_296
            default: return raw
            }
        }
        var cases = scales.flatMap { scale in values.map { ($0, scale) } }
        // Around 10^-4 and 10^15.
        cases += [
            (1, "0.0001"), (99, "0.000001"), (100, "0.000001"), (999_999_999_999_999, "1"),
            (99_999_999_999_999, "10"), (1_234_567_890_123_45, "0.1"),
        ].map { (Int64($0.0), DecimalScale($0.1)!) }
        var mismatches: [String] = []
        for (value, scale) in cases {
            let (written, honest) = exact(value, scale)
            if !honest { mismatches.append("\(value) × \(scale): written, though it says not") }
            let expected = JSONValue.number(scale.apply(Double(value))).text
            if let written, written != expected { mismatches.append("\(value) × \(scale): \(written) != \(expected)") }
        }
        return mismatches
    }
}

extension SplitMix64 {
    /// `count` random bytes.
    fileprivate mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
    }
}
