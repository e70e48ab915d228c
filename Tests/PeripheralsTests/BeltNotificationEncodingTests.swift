import Testing

@testable import Peripherals

@Suite struct BeltNotificationEncodingTests {
    @Test func keepAliveIsOneThenMode() {
        let notification = BeltNotification.keepAlive(mode: .app)
        #expect(notification.encoded() == [0x01, 0x03])
        #expect(notification.characteristicUUID == "0000fe02-0000-1000-8000-00805f9b34fb")
    }

    @Test(arguments: [
        (BeltParameterValue.mode(.compass), [UInt8]([0x01, 0x01, 0x02])),
        (.defaultIntensity(5), [0x01, 0x02, 0x05]),
        (.headingOffset(300), [0x01, 0x03, 0x2C, 0x01]),
        (.name("naviGuertel"), [0x01, 0x04, 0x6E, 0x61, 0x76, 0x69, 0x47, 0x75, 0x65, 0x72, 0x74, 0x65, 0x6C]),
        (.advancedDefaultIntensity(60), [0x10, 0x00, 0x3C]),
        (.advancedHeadingOffset(45), [0x10, 0x01, 0x2D, 0x00]),
        (.accuracySignal(.default), [0x10, 0x03, 0x03]),
        (.orientationPeriod(milliseconds: 1000), [0x10, 0x0F, 0xE8, 0x03]),
        (.pairingRequirement(true), [0x10, 0x25, 0x01]),
    ])
    func parameterNotifications(value: BeltParameterValue, bytes: [UInt8]) throws {
        let notification = BeltNotification.parameter(value)
        #expect(notification.encoded() == bytes)
        #expect(notification.characteristicUUID == "0000fe06-0000-1000-8000-00805f9b34fb")
        #expect(
            try BeltNotification.decode(characteristic: notification.characteristicUUID, bytes: bytes) == notification)
    }

    @Test func orientationIsSixteenBytesFromFusion() throws {
        let orientation = BeltOrientation(
            beltHeading: -20, boxHeading: 340, boxRoll: 2, boxPitch: -3, accuracy: 15, magnetometerStatus: 2,
            fusionStatus: -1, isInaccurate: true)
        let bytes = BeltNotification.orientation(orientation).encoded()
        #expect(
            bytes == [0x02, 0xEC, 0xFF, 0x54, 0x01, 0x02, 0x00, 0xFD, 0xFF, 0x0F, 0x00, 0x02, 0x03, 0x03, 0xFF, 0x01])
        #expect(try BeltOrientation(bytes: bytes) == orientation)
    }

    @Test func batteryIsNineBytes() throws {
        let status = BeltBatteryStatus(
            powerStatus: .charging, levelPercent: 75.5, timeSeconds: 1800, currentMilliamps: 420,
            voltageMillivolts: 4100)
        let bytes = BeltNotification.battery(status).encoded()
        #expect(bytes == [0x02, 0x80, 0x4B, 0x40, 0x01, 0xA4, 0x01, 0x04, 0x10])
        #expect(try BeltBatteryStatus(bytes: bytes) == status)
    }

    @Test func batteryWithoutExtrasStillSendsNineBytes() {
        let status = BeltBatteryStatus(powerStatus: .battery, levelPercent: 150, timeSeconds: -5)
        #expect(status.encoded() == [0x01, 0x00, 0x96, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(status.levelPercent == 100)
    }

    @Test func buttonIsFiveBytes() throws {
        let event = BeltButtonEvent(button: .power, longPress: true, previousMode: .app, newMode: .standby)
        #expect(BeltNotification.button(event).encoded() == [0x01, 0x03, 0x00, 0x03, 0x00])
        let short = BeltButtonEvent(button: .home, longPress: false, previousMode: .app, newMode: .app)
        #expect(short.encoded() == [0x04, 0x01, 0x00, 0x03, 0x03])
        #expect(try BeltButtonEvent(bytes: short.encoded()) == short)
    }

    @Test(arguments: [
        (UInt16(52), UInt8?.some(0), [UInt8]([0x34, 0x00, 0x00])),
        (45, 0, [0x2D, 0x00, 0x00]),
        (4, 4, [0x04, 0x00, 0x04]),
        (300, nil, [0x2C, 0x01]),
    ])
    func firmwareBytes(version: UInt16, variant: UInt8?, bytes: [UInt8]) throws {
        let firmware = BeltNotification.firmware(BeltFirmwareInfo(version: version, variant: variant))
        #expect(firmware.encoded() == bytes)
        #expect(firmware.characteristicUUID == "0000fe01-0000-1000-8000-00805f9b34fb")
        #expect(try BeltNotification.decode(characteristic: "FE01", bytes: bytes) == firmware)
    }
}
