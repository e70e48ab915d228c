import Testing

@testable import Peripherals

/// What a simulated sensor sends: Heart Rate Measurement (2A37) notifications, and the values of reads of Body
/// Sensor Location (2A38) and Battery Level (2A19). Each comment works the bytes out by hand from the flags (bit 0
/// uint16 heart rate, bits 1–2 contact, bit 3 energy expended, bit 4 RR intervals); multi-byte fields are
/// little-endian.
@Suite struct HeartRateEncodingTests {
    @Test(arguments: [
        // 72 bpm fits a uint8: flags 0x00, then 0x48.
        (HeartRateMeasurement(beatsPerMinute: 72), [UInt8(0x00), 0x48]),
        // 0 bpm: 0x00, 0x00.
        (HeartRateMeasurement(beatsPerMinute: 0), [0x00, 0x00]),
        // 255 bpm, the largest uint8: 0x00, 0xFF.
        (HeartRateMeasurement(beatsPerMinute: 255), [0x00, 0xFF]),
    ])
    func uint8HeartRate(measurement: HeartRateMeasurement, bytes: [UInt8]) throws {
        #expect(measurement.encoded() == bytes)
        #expect(try HeartRateMeasurement(bytes: bytes) == measurement)
    }

    @Test(arguments: [
        // 256 bpm, one past a uint8: flags 0x01, then 0x0100 low byte first.
        (HeartRateMeasurement(beatsPerMinute: 256), [UInt8(0x01), 0x00, 0x01]),
        // 300 bpm = 0x012C.
        (HeartRateMeasurement(beatsPerMinute: 300), [0x01, 0x2C, 0x01]),
        // 65535 bpm = 0xFFFF, the largest the field holds.
        (HeartRateMeasurement(beatsPerMinute: 65535), [0x01, 0xFF, 0xFF]),
    ])
    func uint16HeartRateOnlyAboveTwoHundredFiftyFive(measurement: HeartRateMeasurement, bytes: [UInt8]) throws {
        #expect(measurement.encoded() == bytes)
        #expect(try HeartRateMeasurement(bytes: bytes) == measurement)
    }

    @Test(arguments: [
        // Cannot tell: bits 2–1 = 00, flags 0x00. 72 bpm = 0x48.
        (HeartRateSensorContact.notSupported, [UInt8(0x00), 0x48], [UInt8(0x01), 0x2C, 0x01]),
        // Can tell, no contact: bits 2–1 = 10, flags 0x04; with the uint16 300 bpm (0x012C), 0x05.
        (.notDetected, [0x04, 0x48], [0x05, 0x2C, 0x01]),
        // Contact: bits 2–1 = 11, flags 0x06; with the uint16, 0x07.
        (.detected, [0x06, 0x48], [0x07, 0x2C, 0x01]),
    ])
    func eachContactState(contact: HeartRateSensorContact, uint8Bytes: [UInt8], uint16Bytes: [UInt8]) {
        #expect(HeartRateMeasurement(beatsPerMinute: 72, contact: contact).encoded() == uint8Bytes)
        #expect(HeartRateMeasurement(beatsPerMinute: 300, contact: contact).encoded() == uint16Bytes)
        #expect(HeartRateSensorContact(flags: contact.flagBits) == contact)
    }

    @Test(arguments: [
        // Energy absent: no bit 3. Contact detected, flags 0x06; 72 bpm.
        (HeartRateMeasurement(beatsPerMinute: 72, contact: .detected), [UInt8(0x06), 0x48]),
        // 0x08: energy expended. 72 bpm; 10000 kJ = 0x2710.
        (HeartRateMeasurement(beatsPerMinute: 72, energyExpendedKilojoules: 10000), [0x08, 0x48, 0x10, 0x27]),
        // 0x09: uint16 and energy expended. 300 bpm = 0x012C; 1000 kJ = 0x03E8.
        (HeartRateMeasurement(beatsPerMinute: 300, energyExpendedKilojoules: 1000), [0x09, 0x2C, 0x01, 0xE8, 0x03]),
        // 0x0E: contact detected and energy expended. 72 bpm; 0 kJ, just after a reset, is still sent.
        (
            HeartRateMeasurement(beatsPerMinute: 72, contact: .detected, energyExpendedKilojoules: 0),
            [0x0E, 0x48, 0x00, 0x00]
        ),
        // 0x08 with the largest count: 65535 kJ = 0xFFFF.
        (HeartRateMeasurement(beatsPerMinute: 72, energyExpendedKilojoules: 65535), [0x08, 0x48, 0xFF, 0xFF]),
    ])
    func energyExpendedPresentOrAbsent(measurement: HeartRateMeasurement, bytes: [UInt8]) throws {
        #expect(measurement.encoded() == bytes)
        #expect(try HeartRateMeasurement(bytes: bytes) == measurement)
    }

    @Test(arguments: [
        // 0x10: RR intervals. 60 bpm = 0x3C; RR 1024 = 0x0400 (1.0 s).
        (HeartRateMeasurement(beatsPerMinute: 60, rawRRIntervals: [1024]), [UInt8(0x10), 0x3C, 0x00, 0x04]),
        // 0x16: contact detected and RR intervals. 75 bpm = 0x4B; RR 768 = 0x0300, 1024 = 0x0400, 512 = 0x0200,
        // oldest first as given.
        (
            HeartRateMeasurement(beatsPerMinute: 75, contact: .detected, rawRRIntervals: [768, 1024, 512]),
            [0x16, 0x4B, 0x00, 0x03, 0x00, 0x04, 0x00, 0x02]
        ),
        // 0x18: energy expended and RR intervals, bits 1–2 clear. 90 bpm = 0x5A; 1 kJ = 0x0001; RR 683 = 0x02AB.
        (
            HeartRateMeasurement(beatsPerMinute: 90, energyExpendedKilojoules: 1, rawRRIntervals: [683]),
            [0x18, 0x5A, 0x01, 0x00, 0xAB, 0x02]
        ),
        // 0x1F: bits 0–4 all set. 300 bpm = 0x012C; 1000 kJ = 0x03E8; RR 512 = 0x0200 and 256 = 0x0100.
        (
            HeartRateMeasurement(
                beatsPerMinute: 300, contact: .detected, energyExpendedKilojoules: 1000, rawRRIntervals: [512, 256]),
            [0x1F, 0x2C, 0x01, 0xE8, 0x03, 0x00, 0x02, 0x00, 0x01]
        ),
        // 0x10: the extreme intervals 0 and 65535 = 0xFFFF.
        (HeartRateMeasurement(beatsPerMinute: 72, rawRRIntervals: [0, 65535]), [0x10, 0x48, 0x00, 0x00, 0xFF, 0xFF]),
    ])
    func rrIntervals(measurement: HeartRateMeasurement, bytes: [UInt8]) throws {
        #expect(measurement.encoded() == bytes)
        #expect(try HeartRateMeasurement(bytes: bytes) == measurement)
    }

    /// Every combination of a heart rate (the argument) with each contact state, energy expended and RR interval
    /// list below decodes back to itself, in exactly the bytes its fields need and with the reserved bits clear.
    @Test(arguments: [0, 1, 72, 254, 255, 256, 300, 65534, 65535])
    func decodingTheEncodingGivesTheMeasurementBack(beatsPerMinute: Int) throws {
        let contacts: [HeartRateSensorContact] = [.notSupported, .notDetected, .detected]
        let energies: [Int?] = [nil, 0, 1, 255, 256, 10000, 65535]
        let rrLists: [[UInt16]] = [
            [], [0], [1024], [768, 1024, 512], [65535, 1], (0..<253).map { UInt16($0 * 257) },
        ]
        for contact in contacts {
            for energy in energies {
                for rr in rrLists {
                    let measurement = HeartRateMeasurement(
                        beatsPerMinute: beatsPerMinute, contact: contact, energyExpendedKilojoules: energy,
                        rawRRIntervals: rr)
                    let bytes = measurement.encoded()
                    #expect(try HeartRateMeasurement(bytes: bytes) == measurement)
                    let heartRateBytes = beatsPerMinute > 255 ? 2 : 1
                    #expect(bytes.count == 1 + heartRateBytes + (energy == nil ? 0 : 2) + 2 * rr.count)
                    #expect(bytes[0] & 0xE0 == 0)
                }
            }
        }
    }

    @Test(arguments: [
        // Flags + uint8: 2 bytes, leaving 510 = 255 intervals, 512 bytes in all.
        (72, Int?.none, 255, 512),
        // Flags + uint8 + energy: 4 bytes, leaving 508 = 254 intervals, 512 bytes.
        (72, 100, 254, 512),
        // Flags + uint16: 3 bytes, leaving 509, of which 508 = 254 intervals: 511 bytes.
        (300, nil, 254, 511),
        // Flags + uint16 + energy: 5 bytes, leaving 507, of which 506 = 253 intervals: 511 bytes.
        (300, 100, 253, 511),
    ])
    func tooManyRRIntervalsKeepTheNewestThatFit(
        beatsPerMinute: Int, energy: Int?, capacity: Int, byteCount: Int
    ) throws {
        // 400 intervals 0, 1, 2, … 399, oldest first: only the last `capacity` of them fit.
        let measurement = HeartRateMeasurement(
            beatsPerMinute: beatsPerMinute, energyExpendedKilojoules: energy, rawRRIntervals: (0..<400).map(UInt16.init)
        )
        let bytes = measurement.encoded()
        #expect(bytes.count == byteCount)
        #expect(bytes.count <= HeartRateMeasurement.maximumByteCount)
        let decoded = try HeartRateMeasurement(bytes: bytes)
        #expect(decoded.rawRRIntervals == (400 - capacity..<400).map(UInt16.init))
        #expect(decoded.beatsPerMinute == beatsPerMinute)
        #expect(decoded.energyExpendedKilojoules == energy)

        // At the capacity nothing is dropped; one more drops only the oldest.
        let full = HeartRateMeasurement(
            beatsPerMinute: beatsPerMinute, energyExpendedKilojoules: energy,
            rawRRIntervals: (0..<capacity).map(UInt16.init))
        #expect(try HeartRateMeasurement(bytes: full.encoded()) == full)
        let oneOver = HeartRateMeasurement(
            beatsPerMinute: beatsPerMinute, energyExpendedKilojoules: energy,
            rawRRIntervals: (0...capacity).map(UInt16.init))
        #expect(try HeartRateMeasurement(bytes: oneOver.encoded()).rawRRIntervals == (1...capacity).map(UInt16.init))
    }

    @Test(arguments: [
        // Below zero: 0 bpm, a uint8, flags 0x00.
        (-1, [UInt8(0x00), 0x00], 0),
        (Int.min, [0x00, 0x00], 0),
        // Above the uint16: 65535 bpm = 0xFFFF, flags 0x01.
        (65536, [0x01, 0xFF, 0xFF], 65535),
        (Int.max, [0x01, 0xFF, 0xFF], 65535),
    ])
    func heartRateOutsideTheFieldIsClamped(beatsPerMinute: Int, bytes: [UInt8], decoded: Int) throws {
        #expect(HeartRateMeasurement(beatsPerMinute: beatsPerMinute).encoded() == bytes)
        #expect(try HeartRateMeasurement(bytes: bytes).beatsPerMinute == decoded)
    }

    @Test(arguments: [
        // Below zero: 0 kJ. Flags 0x08, 72 bpm = 0x48, 0x0000.
        (-5, [UInt8(0x08), 0x48, 0x00, 0x00], 0),
        (Int.min, [0x08, 0x48, 0x00, 0x00], 0),
        // Above the uint16: 65535 kJ = 0xFFFF, where the specification has a sensor stay until a reset.
        (65536, [0x08, 0x48, 0xFF, 0xFF], 65535),
        (Int.max, [0x08, 0x48, 0xFF, 0xFF], 65535),
    ])
    func energyExpendedOutsideTheFieldIsClamped(kilojoules: Int, bytes: [UInt8], decoded: Int) throws {
        #expect(HeartRateMeasurement(beatsPerMinute: 72, energyExpendedKilojoules: kilojoules).encoded() == bytes)
        #expect(try HeartRateMeasurement(bytes: bytes).energyExpendedKilojoules == decoded)
    }

    @Test(arguments: [
        (HeartRateBodySensorLocation.other, UInt8(0)),
        (.chest, 1),
        (.wrist, 2),
        (.finger, 3),
        (.hand, 4),
        (.earLobe, 5),
        (.foot, 6),
        // Reserved values are served as they are.
        (.reserved(7), 7),
        (.reserved(0x80), 0x80),
        (.reserved(0xFF), 0xFF),
    ])
    func bodySensorLocationIsItsByte(location: HeartRateBodySensorLocation, byte: UInt8) throws {
        #expect(location.encoded() == [byte])
        #expect(try HeartRateBodySensorLocation(bytes: location.encoded()) == location)
    }

    @Test func reservedHoldingANamedByteReadsBackAsTheNamedLocation() throws {
        // `.reserved(1)` is not what the decoder makes of 0x01, but the byte is all the wire carries.
        #expect(HeartRateBodySensorLocation.reserved(1).encoded() == [0x01])
        #expect(try HeartRateBodySensorLocation(bytes: [0x01]) == .chest)
    }

    @Test(
        arguments: [
            (0, 0x00),
            (55, 0x37),
            (100, 0x64),
            // Outside 0–100: clamped, so a simulated strap never serves a reserved level.
            (-1, 0x00),
            (Int.min, 0x00),
            (101, 0x64),
            (Int.max, 0x64),
        ] as [(Int, UInt8)])
    func batteryLevelIsOneClampedByte(percent: Int, byte: UInt8) throws {
        let level = HeartRateBatteryLevel(clampingPercent: percent)
        #expect(level.percent == Int(byte))
        #expect(level.encoded() == [byte])
        #expect(try HeartRateBatteryLevel(bytes: level.encoded()) == level)
        #expect(
            try HeartRateNotification.decode(characteristic: HeartRateGATT.Characteristic.batteryLevel, bytes: [byte])
                == .batteryLevel(level))
    }
}
