import Testing

@testable import Peripherals

/// The UUIDs, and which decoder each characteristic's bytes reach.
@Suite struct HeartRateGATTTests {
    @Test func uuidsAreFullLowerCase() {
        #expect(HeartRateGATT.Service.heartRate == "0000180d-0000-1000-8000-00805f9b34fb")
        #expect(HeartRateGATT.Service.battery == "0000180f-0000-1000-8000-00805f9b34fb")
        #expect(HeartRateGATT.Characteristic.measurement == "00002a37-0000-1000-8000-00805f9b34fb")
        #expect(HeartRateGATT.Characteristic.bodySensorLocation == "00002a38-0000-1000-8000-00805f9b34fb")
        #expect(HeartRateGATT.Characteristic.controlPoint == "00002a39-0000-1000-8000-00805f9b34fb")
        #expect(HeartRateGATT.Characteristic.batteryLevel == "00002a19-0000-1000-8000-00805f9b34fb")
        #expect(HeartRateGATT.Characteristic.clientConfiguration == "00002902-0000-1000-8000-00805f9b34fb")
    }

    @Test(arguments: [
        // 0x06: contact detected, uint8 0x48 = 72 bpm.
        (
            "2A37", [UInt8(0x06), 0x48],
            HeartRateNotification.measurement(.init(beatsPerMinute: 72, contact: .detected))
        ),
        ("0x2a38", [0x01], .bodySensorLocation(.chest)),
        ("00002A38-0000-1000-8000-00805F9B34FB", [0x09], .bodySensorLocation(.reserved(9))),
    ])
    func decodeDispatchesOnTheCharacteristic(uuid: String, bytes: [UInt8], expected: HeartRateNotification) throws {
        #expect(try HeartRateNotification.decode(characteristic: uuid, bytes: bytes) == expected)
    }

    @Test(arguments: ["2a19", "0x2A19", "00002A19-0000-1000-8000-00805F9B34FB"])
    func batteryLevelDispatchKeepsThePercent(uuid: String) throws {
        guard case .batteryLevel(let level) = try HeartRateNotification.decode(characteristic: uuid, bytes: [0x5A])
        else {
            Issue.record("2A19 did not decode to a battery level")
            return
        }
        #expect(level.percent == 90)
    }

    @Test(arguments: ["2A39", "2902", "180D"])
    func characteristicsWithoutDeviceValuesAreRefused(uuid: String) {
        #expect(
            throws: HeartRateDecodeError(
                characteristic: BluetoothUUID.normalized(uuid), reason: .unsupportedCharacteristic)
        ) { try HeartRateNotification.decode(characteristic: uuid, bytes: [0x01]) }
    }

    @Test func decodeErrorsNameTheNormalisedCharacteristic() {
        #expect(throws: HeartRateDecodeError(characteristic: HeartRateGATT.Characteristic.measurement, reason: .empty))
        {
            try HeartRateNotification.decode(characteristic: "2a37", bytes: [])
        }
    }
}
