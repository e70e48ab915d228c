import Testing

@testable import Peripherals

/// Heart Rate Measurement (2A37) values that decode, one per flag combination. Each comment reads the flags byte
/// bit by bit (bit 0 uint16 heart rate, bits 1–2 contact, bit 3 energy expended, bit 4 RR intervals, bits 5–7
/// reserved) and works the fields out by hand; multi-byte fields are little-endian.
@Suite struct HeartRateMeasurementDecodingTests {
    @Test(arguments: [
        // 0x00: uint8, no contact feature, nothing else. 0x48 = 72 bpm.
        ([UInt8(0x00), 0x48], HeartRateMeasurement(beatsPerMinute: 72, contact: .notSupported)),
        // 0x02: bit 1 alone; without bit 2 the sensor still cannot tell contact. 72 bpm.
        ([0x02, 0x48], HeartRateMeasurement(beatsPerMinute: 72, contact: .notSupported)),
        // 0x04: bit 2 (feature supported), bit 1 clear (no contact). 72 bpm.
        ([0x04, 0x48], HeartRateMeasurement(beatsPerMinute: 72, contact: .notDetected)),
        // 0x06: bits 1 and 2, contact detected. 72 bpm.
        ([0x06, 0x48], HeartRateMeasurement(beatsPerMinute: 72, contact: .detected)),
        // 0x00 with the largest uint8: 0xFF = 255 bpm.
        ([0x00, 0xFF], HeartRateMeasurement(beatsPerMinute: 255)),
    ])
    func uint8HeartRateAndContact(bytes: [UInt8], expected: HeartRateMeasurement) throws {
        let measurement = try HeartRateMeasurement(bytes: bytes)
        #expect(measurement == expected)
        #expect(measurement.energyExpendedKilojoules == nil)
        #expect(measurement.rawRRIntervals.isEmpty)
    }

    @Test(arguments: [
        // 0x01: uint16. 0x012C = 300 bpm, beyond a uint8.
        ([UInt8(0x01), 0x2C, 0x01], HeartRateMeasurement(beatsPerMinute: 300)),
        // 0x01: uint16 holding a small rate; allowed, the uint8 form is only recommended. 0x0048 = 72 bpm.
        ([0x01, 0x48, 0x00], HeartRateMeasurement(beatsPerMinute: 72)),
        // 0x07: uint16, contact detected. 0xFFFF = 65535 bpm, the largest the field holds.
        ([0x07, 0xFF, 0xFF], HeartRateMeasurement(beatsPerMinute: 65535, contact: .detected)),
        // 0x05: uint16, contact supported but not detected. 0x0100 = 256 bpm: the high byte counts.
        ([0x05, 0x00, 0x01], HeartRateMeasurement(beatsPerMinute: 256, contact: .notDetected)),
    ])
    func uint16HeartRate(bytes: [UInt8], expected: HeartRateMeasurement) throws {
        #expect(try HeartRateMeasurement(bytes: bytes) == expected)
    }

    @Test(arguments: [
        // 0x08: uint8, energy expended. 72 bpm; 0x2710 = 10000 kJ.
        ([UInt8(0x08), 0x48, 0x10, 0x27], HeartRateMeasurement(beatsPerMinute: 72, energyExpendedKilojoules: 10000)),
        // 0x09: uint16 and energy expended. 0x012C = 300 bpm; 0x03E8 = 1000 kJ.
        ([0x09, 0x2C, 0x01, 0xE8, 0x03], HeartRateMeasurement(beatsPerMinute: 300, energyExpendedKilojoules: 1000)),
        // 0x0E: contact detected and energy expended. 72 bpm; 0x0000 = 0 kJ, just after a reset.
        (
            [0x0E, 0x48, 0x00, 0x00],
            HeartRateMeasurement(beatsPerMinute: 72, contact: .detected, energyExpendedKilojoules: 0)
        ),
    ])
    func energyExpended(bytes: [UInt8], expected: HeartRateMeasurement) throws {
        #expect(try HeartRateMeasurement(bytes: bytes) == expected)
    }

    @Test func oneRRIntervalOfOneSecond() throws {
        // 0x10: uint8, RR intervals. 0x3C = 60 bpm; RR 0x0400 = 1024/1024 s = 1.0 s.
        let measurement = try HeartRateMeasurement(bytes: [0x10, 0x3C, 0x00, 0x04])
        #expect(measurement == HeartRateMeasurement(beatsPerMinute: 60, rawRRIntervals: [1024]))
        #expect(measurement.rrIntervalSeconds == [1.0])
    }

    @Test func severalRRIntervalsKeepTheirOrder() throws {
        // 0x16: contact detected (bits 1–2) and RR intervals (bit 4). 0x4B = 75 bpm; RR 0x0300 = 768 → 0.75 s,
        // 0x0400 = 1024 → 1.0 s, 0x0200 = 512 → 0.5 s, oldest first as sent.
        let measurement = try HeartRateMeasurement(bytes: [0x16, 0x4B, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02])
        #expect(measurement.beatsPerMinute == 75)
        #expect(measurement.contact == .detected)
        #expect(measurement.rawRRIntervals == [768, 1024, 512])
        #expect(measurement.rrIntervalSeconds == [0.75, 1.0, 0.5])
    }

    @Test func twoEqualRRIntervals() throws {
        // 0x16: contact detected, RR intervals. 0x48 = 72 bpm; RR 0x0400 twice = 1.0 s, 1.0 s.
        let measurement = try HeartRateMeasurement(bytes: [0x16, 0x48, 0x00, 0x04, 0x00, 0x04])
        #expect(
            measurement == HeartRateMeasurement(beatsPerMinute: 72, contact: .detected, rawRRIntervals: [1024, 1024]))
        #expect(measurement.rrIntervalSeconds == [1.0, 1.0])
    }

    @Test func fractionalRRIntervalAfterEnergyExpended() throws {
        // 0x1E: contact detected, energy expended, RR intervals, uint8. 72 bpm; 0x0064 = 100 kJ; RR 0x0355 = 853
        // → 853/1024 s = 0.8330078125 s (exact in binary, so compared exactly).
        let measurement = try HeartRateMeasurement(bytes: [0x1E, 0x48, 0x64, 0x00, 0x55, 0x03])
        #expect(
            measurement
                == HeartRateMeasurement(
                    beatsPerMinute: 72, contact: .detected, energyExpendedKilojoules: 100, rawRRIntervals: [853]))
        #expect(measurement.rrIntervalSeconds == [0.8330078125])
    }

    @Test func everyFieldAtOnce() throws {
        // 0x1F: bits 0–4 all set: uint16, contact detected, energy expended, RR intervals. 0x012C = 300 bpm;
        // 0x03E8 = 1000 kJ; RR 0x0200 = 512 → 0.5 s and 0x0100 = 256 → 0.25 s.
        let measurement = try HeartRateMeasurement(bytes: [0x1F, 0x2C, 0x01, 0xE8, 0x03, 0x00, 0x02, 0x00, 0x01])
        #expect(
            measurement
                == HeartRateMeasurement(
                    beatsPerMinute: 300, contact: .detected, energyExpendedKilojoules: 1000, rawRRIntervals: [512, 256])
        )
        #expect(measurement.rrIntervalSeconds == [0.5, 0.25])
    }

    @Test func energyAndRRWithoutContactFeature() throws {
        // 0x18: energy expended and RR intervals, bits 1–2 clear. 0x5A = 90 bpm; 0x0001 = 1 kJ; RR 0x02AB = 683.
        let measurement = try HeartRateMeasurement(bytes: [0x18, 0x5A, 0x01, 0x00, 0xAB, 0x02])
        #expect(
            measurement
                == HeartRateMeasurement(
                    beatsPerMinute: 90, contact: .notSupported, energyExpendedKilojoules: 1, rawRRIntervals: [683]))
    }

    @Test(arguments: [
        // 0xE0: only the reserved bits 5–7; read as 0x00. 72 bpm.
        ([UInt8(0xE0), 0x48], HeartRateMeasurement(beatsPerMinute: 72)),
        // 0x20: reserved bit 5 alone. 72 bpm.
        ([0x20, 0x48], HeartRateMeasurement(beatsPerMinute: 72)),
        // 0xF6: reserved bits 5–7 with contact detected and RR intervals (0x16). 72 bpm; RR 0x0400 = 1024.
        (
            [0xF6, 0x48, 0x00, 0x04],
            HeartRateMeasurement(beatsPerMinute: 72, contact: .detected, rawRRIntervals: [1024])
        ),
    ])
    func reservedFlagBitsAreIgnored(bytes: [UInt8], expected: HeartRateMeasurement) throws {
        #expect(try HeartRateMeasurement(bytes: bytes) == expected)
    }

    @Test(arguments: [
        // 0x00: uint8 0 bpm, no contact feature.
        ([UInt8(0x00), 0x00], HeartRateSensorContact.notSupported),
        // 0x04: uint8 0 bpm, contact supported and not detected: a strap lying on the table.
        ([0x04, 0x00], .notDetected),
        // 0x01: uint16 0x0000 = 0 bpm.
        ([0x01, 0x00, 0x00], .notSupported),
    ])
    func zeroHeartRateDecodes(bytes: [UInt8], contact: HeartRateSensorContact) throws {
        #expect(try HeartRateMeasurement(bytes: bytes) == HeartRateMeasurement(beatsPerMinute: 0, contact: contact))
    }

    @Test func longestValueHoldsTwoHundredFiftyFiveRRIntervals() throws {
        // 0x10: RR intervals. 72 bpm, then 510 bytes = 255 intervals of 0x0400: 512 bytes in all, the limit.
        var bytes: [UInt8] = [0x10, 0x48]
        for _ in 0..<255 { bytes += [0x00, 0x04] }
        #expect(bytes.count == HeartRateMeasurement.maximumByteCount)
        let measurement = try HeartRateMeasurement(bytes: bytes)
        #expect(measurement.rawRRIntervals == Array(repeating: 1024, count: 255))
        #expect(measurement.rrIntervalSeconds.allSatisfy { $0 == 1.0 })
    }
}
