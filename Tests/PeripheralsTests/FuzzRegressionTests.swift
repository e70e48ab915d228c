import Foundation
import Testing

@testable import Peripherals

/// Inputs that made a `scripts/fuzz` target fail (fuzz/README.md), kept so the fixes stay fixed.
@Suite struct FuzzRegressionTests {
    /// GripProfile, crash-63aa100179238470be785d4d4f5cdc35d6b6b8de: the fuzzer turned the placeholder's
    /// battery service into `"0x0x0000180f-…"`. `BluetoothUUID.normalized` dropped only one `0x`, so
    /// `load(json:)` validated (normalising once more) and kept `"0x0000180f-…"`, which is not BlueZ
    /// spelling: `json()` then `load(json:)` changed the profile, and the bridge and the simulator would
    /// look the characteristic up under a UUID BlueZ never reports.
    @Test(
        "crash-63aa1001: the profile does not survive json()/load(json:)",
        arguments: ["0x0x0000180f-0000-1000-8000-00805f9b34fb", "0x0x180F", "0x 180F", " 0x 0x 180f "])
    func gripProfileDoesNotSurviveJSONRoundTrip(spelling: String) throws {
        var profile = GripProfile.placeholder
        profile.battery.serviceUUID = spelling
        let loaded = try GripProfile.load(json: profile.json())
        #expect(loaded.battery.serviceUUID == "0000180f-0000-1000-8000-00805f9b34fb")
        #expect(try GripProfile.load(json: loaded.json()) == loaded)
        #expect(loaded.normalized() == loaded)
    }

    /// DeclaredDecoder, crash-e6b9d5ef: a big-endian f64 of about -1.4e306 with `decimals: 3` was multiplied by 1000
    /// to round it and published as -inf. A double from 2^52 up has no fraction to round: it is published as it is.
    @Test("crash-e6b9d5ef: a huge number with decimals became an infinity")
    func aHugeNumberWithDecimalsStaysFinite() throws {
        var huge = DeclaredField(name: "f1", type: .float64(bigEndian: true))
        huge.decimals = 3
        let bytes: [UInt8] = [0xFF, 0x80, 0x00, 0x09, 0xEB, 0xEB, 0xEB, 0xEB]
        let value = Double(bitPattern: bytes.reduce(0) { $0 << 8 | UInt64($1) })
        #expect(
            try DeclaredDecoder.decode(bytes, fields: [huge], characteristic: "fuzz").map(\.value) == [.number(value)])
        #expect(value.isFinite && value < -1e306)
    }

    /// The cause of crash-63aa1001: normalising twice must give what normalising once gives.
    @Test(arguments: [
        "0x0xfe51", "0x 0xFE51", "0x fe51", "0x0x0000fe51-0000-1000-8000-00805f9b34fb", "0x0xzz", "0x", "0x0x", "",
        "FE51", "0xfe51", "0000FE51-0000-1000-8000-00805F9B34FB", " 12345678 ", "not a uuid",
    ])
    func normalisingIsIdempotent(spelling: String) {
        let once = BluetoothUUID.normalized(spelling)
        #expect(BluetoothUUID.normalized(once) == once)
    }

    /// The fast path for BlueZ's spelling must agree with the slow one.
    @Test(arguments: [
        ("0000fe51-0000-1000-8000-00805f9b34fb", true), ("0000FE51-0000-1000-8000-00805F9B34FB", false),
        ("0000fe51-0000-1000-8000-00805f9b34f", false), ("0000fe51x0000-1000-8000-00805f9b34fb", false),
        ("0000fe51-0000-1000-8000-00805f9b34fbb", false), ("0000fe5--0000-1000-8000-00805f9b34fb", false),
        (" 0000fe51-0000-1000-8000-00805f9b34fb", false),
    ])
    func canonicalSpellingIsRecognised(spelling: String, canonical: Bool) {
        #expect(BluetoothUUID.isCanonical(spelling) == canonical)
        #expect(BluetoothUUID.normalized(spelling) == "0000fe51-0000-1000-8000-00805f9b34fb" || !canonical)
    }
}
