import Testing

@testable import Peripherals

/// Heart Rate Measurement (2A37) values that must not decode, with the reason each gives.
@Suite struct HeartRateMeasurementErrorTests {
    static let measurement = "00002a37-0000-1000-8000-00805f9b34fb"

    static func failure(_ reason: HeartRateDecodeReason) -> HeartRateDecodeError {
        HeartRateDecodeError(characteristic: measurement, reason: reason)
    }

    @Test func emptyValue() {
        #expect(throws: Self.failure(.empty)) { try HeartRateMeasurement(bytes: []) }
    }

    @Test(arguments: [
        // 0x00 needs the flags and a uint8: 2 bytes.
        ([UInt8(0x00)], 2),
        // 0x01 needs the flags and a uint16: 3 bytes.
        ([0x01, 0x48], 3),
        // 0x08 needs flags, uint8 and energy expended: 4 bytes.
        ([0x08, 0x48, 0x10], 4),
        // 0x09 needs flags, uint16 and energy expended: 5 bytes.
        ([0x09, 0x2C, 0x01], 5),
        // 0x10 promises one or more RR intervals; none came: flags, uint8 and one interval, 4 bytes.
        ([0x10, 0x48], 4),
        // 0x10 with half an RR interval.
        ([0x10, 0x48, 0x00], 4),
        // 0x18 needs flags, uint8, energy expended and an RR interval: 6 bytes.
        ([0x18, 0x48, 0x64, 0x00], 6),
        // 0x1F needs flags, uint16, energy expended and an RR interval: 7 bytes.
        ([0x1F, 0x2C, 0x01, 0xE8, 0x03, 0x00], 7),
    ])
    func fieldsTheFlagsAnnounceAreMissing(bytes: [UInt8], minimum: Int) {
        #expect(throws: Self.failure(.tooShort(minimum: minimum, actual: bytes.count))) {
            try HeartRateMeasurement(bytes: bytes)
        }
    }

    @Test(arguments: [
        // 0x10, 72 bpm, then 3 RR bytes: one interval and a stray byte.
        ([UInt8(0x10), 0x48, 0x00, 0x04, 0x00], 3),
        // 0x19 (uint16, energy, RR), 300 bpm, 1000 kJ, then 5 RR bytes.
        ([0x19, 0x2C, 0x01, 0xE8, 0x03, 0x00, 0x04, 0x00, 0x04, 0x01], 5),
    ])
    func oddRRIntervalField(bytes: [UInt8], rrByteCount: Int) {
        #expect(throws: Self.failure(.oddRRIntervalLength(rrByteCount))) { try HeartRateMeasurement(bytes: bytes) }
    }

    @Test(arguments: [
        // 0x00 explains 2 bytes; 1 more.
        ([UInt8(0x00), 0x48, 0x00], 1),
        // 0x01 explains 3 bytes; 2 more, which would be an RR interval had bit 4 been set.
        ([0x01, 0x48, 0x00, 0x00, 0x04], 2),
        // 0x08 explains 4 bytes; 1 more.
        ([0x08, 0x48, 0x10, 0x27, 0x00], 1),
        // 0xE0 (reserved bits only) explains 2 bytes, like 0x00; 2 more: tolerating the bits does not mean
        // guessing at fields.
        ([0xE0, 0x48, 0x01, 0x02], 2),
    ])
    func bytesTheFlagsDoNotExplain(bytes: [UInt8], extra: Int) {
        #expect(throws: Self.failure(.trailingBytes(extra))) { try HeartRateMeasurement(bytes: bytes) }
    }

    @Test func valueLongerThanAnAttributeCanHold() {
        // 0x10, 72 bpm, then 511 bytes: 513 in all, one past the 512 an attribute value may hold.
        let bytes: [UInt8] = [0x10, 0x48] + Array(repeating: 0x04, count: 511)
        #expect(throws: Self.failure(.tooLong(maximum: 512, actual: 513))) { try HeartRateMeasurement(bytes: bytes) }
    }

    @Test func errorNamesTheCharacteristicForLogs() {
        #expect(
            Self.failure(.trailingBytes(1)).description
                == "cannot decode 00002a37-0000-1000-8000-00805f9b34fb: trailingBytes(1)")
    }
}
