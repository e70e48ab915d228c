import Testing

@testable import Peripherals

/// Body Sensor Location (2A38), Battery Level (2A19) and the Heart Rate Control Point (2A39).
@Suite struct HeartRateReadAndWriteTests {
    static let bodySensorLocation = "00002a38-0000-1000-8000-00805f9b34fb"
    static let batteryLevel = "00002a19-0000-1000-8000-00805f9b34fb"

    @Test(arguments: [
        (UInt8(0), HeartRateBodySensorLocation.other),
        (1, .chest),
        (2, .wrist),
        (3, .finger),
        (4, .hand),
        (5, .earLobe),
        (6, .foot),
    ])
    func namedLocations(byte: UInt8, location: HeartRateBodySensorLocation) throws {
        #expect(try HeartRateBodySensorLocation(bytes: [byte]) == location)
        #expect(location.byte == byte)
    }

    @Test(arguments: [UInt8(7), 0x80, 0xFF])
    func reservedLocationsKeepTheirByte(byte: UInt8) throws {
        let location = try HeartRateBodySensorLocation(bytes: [byte])
        #expect(location == .reserved(byte))
        #expect(location.byte == byte)
    }

    @Test func locationIsExactlyOneByte() {
        #expect(throws: HeartRateDecodeError(characteristic: Self.bodySensorLocation, reason: .empty)) {
            try HeartRateBodySensorLocation(bytes: [])
        }
        #expect(throws: HeartRateDecodeError(characteristic: Self.bodySensorLocation, reason: .trailingBytes(1))) {
            try HeartRateBodySensorLocation(bytes: [0x01, 0x00])
        }
    }

    @Test(arguments: [(UInt8(0x00), 0), (0x37, 55), (0x64, 100)])
    func batteryLevelInPercent(byte: UInt8, percent: Int) throws {
        #expect(try HeartRateBatteryLevel(bytes: [byte]).percent == percent)
    }

    @Test(arguments: [UInt8(0x65), 0xFF])
    func batteryLevelAboveOneHundredIsRefused(byte: UInt8) {
        #expect(throws: HeartRateDecodeError(characteristic: Self.batteryLevel, reason: .batteryLevelOutOfRange(byte)))
        {
            try HeartRateBatteryLevel(bytes: [byte])
        }
    }

    @Test func batteryLevelIsExactlyOneByte() {
        #expect(throws: HeartRateDecodeError(characteristic: Self.batteryLevel, reason: .empty)) {
            try HeartRateBatteryLevel(bytes: [])
        }
        #expect(throws: HeartRateDecodeError(characteristic: Self.batteryLevel, reason: .trailingBytes(1))) {
            try HeartRateBatteryLevel(bytes: [0x32, 0x00])
        }
    }

    @Test func resetEnergyExpendedIsOneByteOne() {
        #expect(HeartRateControlPointCommand.resetEnergyExpended.encoded() == [0x01])
        #expect(
            HeartRateControlPointCommand.resetEnergyExpended.characteristicUUID
                == "00002a39-0000-1000-8000-00805f9b34fb")
        // The only defined value; a simulated sensor would refuse the rest with ATT error 0x80.
        #expect(HeartRateControlPointCommand.allCases == [.resetEnergyExpended])
        #expect(HeartRateControlPointCommand(rawValue: 0x00) == nil)
        #expect(HeartRateControlPointCommand(rawValue: 0x02) == nil)
        #expect(HeartRateControlPointCommand.valueNotSupportedError == 0x80)
    }
}
