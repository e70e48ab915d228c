import Testing

@testable import Peripherals

@Suite struct BeltNotificationDecodingTests {
    static let fe01 = "0000fe01-0000-1000-8000-00805f9b34fb"
    static let fe02 = "0000fe02-0000-1000-8000-00805f9b34fb"
    static let fe04 = "0000fe04-0000-1000-8000-00805f9b34fb"
    static let fe06 = "0000fe06-0000-1000-8000-00805f9b34fb"
    static let fe09 = "0000fe09-0000-1000-8000-00805f9b34fb"
    static let fe0c = "0000fe0c-0000-1000-8000-00805f9b34fb"

    @Test func keepAliveCarriesModeInByte1() throws {
        #expect(try BeltNotification.decode(characteristic: Self.fe02, bytes: [0x01, 0x03]) == .keepAlive(mode: .app))
        #expect(
            try BeltNotification.decode(characteristic: "FE02", bytes: [0x7F, 0x01, 0x55]) == .keepAlive(mode: .wait))
    }

    @Test(arguments: [
        ([UInt8]([0x01, 0x01, 0x02]), BeltParameterValue.mode(.compass)),
        ([0x01, 0x02, 0x32], .defaultIntensity(50)),
        ([0x01, 0x03, 0x2D, 0x00], .headingOffset(45)),
        ([0x01, 0x03, 0x67, 0x01], .headingOffset(359)),
        ([0x01, 0x04, 0x6E, 0x61, 0x76, 0x69], .name("navi")),
        ([0x10, 0x00, 0x46], .advancedDefaultIntensity(70)),
        ([0x10, 0x01, 0x0E, 0x01], .advancedHeadingOffset(270)),
        ([0x10, 0x03, 0x02], .accuracySignal(.appMode)),
        ([0x10, 0x03, 0x03], .accuracySignal([.compassMode, .appMode])),
        ([0x10, 0x0F, 0xF4, 0x01], .orientationPeriod(milliseconds: 500)),
        ([0x10, 0x0F, 0x00, 0x00, 0x80, 0x3F], .unknownParameter([0x10, 0x0F, 0x00, 0x00, 0x80, 0x3F])),
        ([0x10, 0x25, 0x01], .pairingRequirement(true)),
        ([0x10, 0x25, 0x00], .pairingRequirement(false)),
        ([0x10, 0x02, 0x01], .unknownParameter([0x10, 0x02, 0x01])),
        ([0x01, 0x07, 0x01], .unknownParameter([0x01, 0x07, 0x01])),
        ([0x42, 0x00], .unknownParameter([0x42, 0x00])),
    ])
    func parameterNotifications(bytes: [UInt8], expected: BeltParameterValue) throws {
        #expect(try BeltNotification.decode(characteristic: Self.fe06, bytes: bytes) == .parameter(expected))
    }

    @Test func buttonLongPressChangesMode() throws {
        let notification = try BeltNotification.decode(
            characteristic: Self.fe04, bytes: [0x03, 0x03, 0x00, 0x02, 0x06])
        guard case .button(let event) = notification else {
            Issue.record("expected a button event, got \(notification)")
            return
        }
        #expect(event.button == .compass)
        #expect(event.isLongPress)
        #expect(event.previousMode == .compass)
        #expect(event.newMode == .crossing)
    }

    @Test(arguments: [(UInt8(0), false), (1, false), (2, false), (3, true), (4, true), (0xFF, true)])
    func pressCodesThreeAndAboveAreLong(code: UInt8, long: Bool) throws {
        let event = try BeltButtonEvent(bytes: [0x02, code, 0x00, 0x03, 0x03, 0x99])
        #expect(event.isLongPress == long)
        #expect(event.button == .pause)
    }

    @Test func batteryLevelIsEightDotEightFixedPoint() throws {
        let notification = try BeltNotification.decode(
            characteristic: Self.fe09, bytes: [0x01, 0x80, 0x4B, 0x40, 0x01, 0xA2, 0xFE, 0x6E, 0x0F])
        guard case .battery(let status) = notification else {
            Issue.record("expected battery, got \(notification)")
            return
        }
        #expect(status.powerStatus == .battery)
        #expect(status.levelPercent == 75.5)
        #expect(status.timeSeconds == 1800)
        #expect(status.currentMilliamps == -350)
        #expect(status.voltageMillivolts == 3950)
    }

    @Test func shortBatteryPacketHasNoCurrentOrVoltage() throws {
        let status = try BeltBatteryStatus(bytes: [0x02, 0x00, 0x65, 0x10, 0x00, 0x01])
        #expect(status.powerStatus == .charging)
        #expect(status.levelPercent == 100)  // 101 % clamped
        #expect(status.timeSeconds == 90)
        #expect(status.currentMilliamps == nil)
        #expect(status.voltageMillivolts == nil)
    }

    @Test func unknownPowerStatusReadsAsUnknown() throws {
        #expect(try BeltBatteryStatus(bytes: [0x09, 0, 0x32, 0, 0]).powerStatus == .unknown)
    }

    @Test func orientationFields() throws {
        let bytes: [UInt8] = [
            0x02, 0x87, 0x00, 0xB4, 0x00, 0xFB, 0xFF, 0x0C, 0x00, 0x0A, 0x00, 0x03, 0x02, 0x01, 0xFF, 0x00,
        ]
        let notification = try BeltNotification.decode(characteristic: Self.fe0c, bytes: bytes)
        guard case .orientation(let orientation) = notification else {
            Issue.record("expected orientation, got \(notification)")
            return
        }
        #expect(orientation.sensorID == 2)
        #expect(orientation.beltHeading == 135)
        #expect(orientation.boxHeading == 180)
        #expect(orientation.boxRoll == -5)
        #expect(orientation.boxPitch == 12)
        #expect(orientation.accuracy == 10)
        #expect(orientation.magnetometerStatus == 3)
        #expect(orientation.accelerometerStatus == 2)
        #expect(orientation.gyroscopeStatus == 1)
        #expect(orientation.fusionStatus == -1)
        #expect(!orientation.isInaccurate)
    }

    @Test func negativeHeadingAndInaccurateFlag() throws {
        var bytes = [UInt8](repeating: 0, count: 18)
        bytes[1] = 0xEC
        bytes[2] = 0xFF
        bytes[9] = 0x10
        bytes[10] = 0x27
        bytes[15] = 0x05
        let orientation = try BeltOrientation(bytes: bytes)
        #expect(orientation.beltHeading == -20)
        #expect(orientation.accuracy == 10000)
        #expect(orientation.isInaccurate)
    }

    @Test(arguments: [
        ([UInt8]([0x34, 0x00, 0x00]), UInt16(52), UInt8?.some(0)),
        ([0x2D, 0x00], 45, nil),
        ([0x2B], 43, nil),
        ([0x04, 0x00, 0x04], 4, 4),
        ([0x01, 0x02, 0x03, 0x04], 0x0201, 3),
    ])
    func firmwareVersion(bytes: [UInt8], version: UInt16, variant: UInt8?) throws {
        #expect(
            try BeltNotification.decode(characteristic: Self.fe01, bytes: bytes)
                == .firmware(BeltFirmwareInfo(version: version, variant: variant)))
    }

    @Test(arguments: [
        (fe02, [UInt8](), BeltDecodeReason.empty),
        (fe02, [0x01], .tooShort(minimum: 2, actual: 1)),
        (fe02, [0x01, 0x09], .unknownMode(9)),
        (fe06, [], .empty),
        (fe06, [0x01], .tooShort(minimum: 2, actual: 1)),
        (fe06, [0x01, 0x01], .tooShort(minimum: 3, actual: 2)),
        (fe06, [0x01, 0x01, 0xFF], .unknownMode(0xFF)),
        (fe06, [0x01, 0x03, 0x2D], .tooShort(minimum: 4, actual: 3)),
        (fe06, [0x10, 0x03], .tooShort(minimum: 3, actual: 2)),
        (fe06, [0x10, 0x01, 0x01], .tooShort(minimum: 4, actual: 3)),
        (fe04, [0x01, 0x01, 0x00, 0x03], .tooShort(minimum: 5, actual: 4)),
        (fe04, [0x05, 0x01, 0x00, 0x03, 0x03], .unknownButton(5)),
        (fe04, [0x01, 0x01, 0x00, 0x03, 0x0A], .unknownMode(10)),
        (fe09, [0x01, 0x00, 0x32, 0x00], .tooShort(minimum: 5, actual: 4)),
        (fe0c, [UInt8](repeating: 0, count: 15), .tooShort(minimum: 16, actual: 15)),
        (fe01, [], .empty),
        ("0000fe14-0000-1000-8000-00805f9b34fb", [0xA0, 0, 0, 0, 0], .unsupportedCharacteristic),
    ])
    func malformedInputThrowsWithCharacteristicAndReason(uuid: String, bytes: [UInt8], reason: BeltDecodeReason) {
        #expect(throws: BeltDecodeError(characteristic: uuid, reason: reason)) {
            try BeltNotification.decode(characteristic: uuid, bytes: bytes)
        }
    }

    @Test func everyPrefixOfEveryPacketDecodesOrThrowsWithoutTrapping() {
        let packets: [(String, [UInt8])] = [
            (Self.fe02, [0x01, 0x03]), (Self.fe06, [0x01, 0x03, 0x2D, 0x00]), (Self.fe06, [0x10, 0x0F, 0xF4, 0x01]),
            (Self.fe04, [0x01, 0x03, 0x00, 0x03, 0x00]), (Self.fe09, [UInt8](repeating: 0xFF, count: 16)),
            (Self.fe0c, [UInt8](repeating: 0x80, count: 16)), (Self.fe01, [0x34, 0x00, 0x00]),
        ]
        var decoded = 0
        for (uuid, bytes) in packets {
            for length in 0...bytes.count {
                if (try? BeltNotification.decode(characteristic: uuid, bytes: Array(bytes.prefix(length)))) != nil {
                    decoded += 1
                }
            }
        }
        // Per packet: fe02 1, fe06 heading offset 1, fe06 `10 0F` 3 (lengths 2–3 as unknown, 4 as period),
        // fe04 1, fe09 12 (lengths 5–16), fe0c 1, fe01 3 (lengths 1–3).
        #expect(decoded == 1 + 1 + 3 + 1 + 12 + 1 + 3)
    }
}
