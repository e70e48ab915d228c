import Testing

@testable import Peripherals

/// Bits 1–2 of a measurement's flags, alone and among the other bits.
@Suite struct HeartRateSensorContactTests {
    @Test(arguments: [
        // Bits 2–1 = 00 and 01: the sensor cannot tell.
        (UInt8(0x00), HeartRateSensorContact.notSupported),
        (0x02, .notSupported),
        // 10: it can tell, and there is no contact.
        (0x04, .notDetected),
        // 11: contact.
        (0x06, .detected),
        // The other bits change nothing: 0xF9 has every bit but 1–2, 0xFB adds bit 1, 0xFD bit 2, 0xFF both.
        (0xF9, .notSupported),
        (0xFB, .notSupported),
        (0xFD, .notDetected),
        (0xFF, .detected),
    ])
    func readsBitsOneAndTwo(flags: UInt8, contact: HeartRateSensorContact) {
        #expect(HeartRateSensorContact(flags: flags) == contact)
        #expect(HeartRateMeasurementFlags(rawValue: flags).contact == contact)
    }

    @Test(arguments: [
        // flags + uint8.
        (UInt8(0x00), 2, 2),
        // flags + uint16.
        (0x01, 3, 3),
        // flags + uint8 + energy.
        (0x08, 4, 4),
        // flags + uint8, and at least one RR interval.
        (0x10, 2, 4),
        // flags + uint16 + energy, and at least one RR interval.
        (0x19, 5, 7),
        // Reserved bits add nothing.
        (0xE0, 2, 2),
    ])
    func flagsGiveTheFieldLengths(flags: UInt8, fixed: Int, minimum: Int) {
        let parsed = HeartRateMeasurementFlags(rawValue: flags)
        #expect(parsed.fixedFieldsByteCount == fixed)
        #expect(parsed.minimumByteCount == minimum)
    }
}
