import Foundation
import Testing

@testable import Peripherals

/// Device→host golden vectors from activ5.md §4.3, §5 and §8, decoded as the bridge does.
@Suite struct Activ5NotificationDecodingTests {
    typealias T = Activ5TestBytes

    @Test(arguments: [
        (
            T.tc5k,
            Activ5LegacyMessage.initial(
                Activ5DeviceStatus(firmwareVersion: "1.00", protocolVersion: "04", batteryStatus: "BATOK"))
        ),
        (T.iOSIsometric, .isometric(raw: 9)),
        (T.hex("12 49 53 31 30 30 2F 49 53 13"), .isometric(raw: 100)),
        (T.frame("IS-12/IS"), .isometric(raw: -12)),
        (T.frame("IS007/IS;x"), .isometric(raw: 7)),
        (
            T.frame("TC5k;2.10"),
            .initial(Activ5DeviceStatus(firmwareVersion: "2.10", protocolVersion: nil, batteryStatus: nil))
        ),
        (
            T.frame("TC5k;1.00;04;BATLOW"),
            .initial(Activ5DeviceStatus(firmwareVersion: "1.00", batteryStatus: "BATLOW"))
        ),
        (T.frame("ASN1A5SIM0"), .serialNumberPart(.first, "A5SIM0")),
        (T.frame("xSN2000001;junk"), .serialNumberPart(.second, "000001")),
        (T.frame("ISN1AB"), .serialNumberPart(.first, "AB")),
        (T.frame("Ai5F3C2A10"), .deviceIDPart(.first, "5F3C2A10")),
        (T.frame("AI9B7E") + [0x00], .deviceIDPart(.second, "9B7E")),
        (T.hex("12 41 49 39 42 00 00 13"), .deviceIDPart(.second, "9B")),
        (T.frame("OK"), .unknown("OK")),
        (T.frame(""), .unknown("")),
        (T.hex("00 12 49 53 12 35 2F 49 53 13 13"), .isometric(raw: 5)),
    ])
    func legacyFramesDecode(bytes: [UInt8], expected: Activ5LegacyMessage) throws {
        #expect(try Activ5Notification.decode(characteristic: "5A01", bytes: bytes) == .legacy(expected))
    }

    @Test func tc5kCarriesFirmwareProtocolAndBattery() throws {
        guard
            case .legacy(.initial(let status)) = try Activ5Notification.decode(
                characteristic: T.legacyMessages, bytes: T.tc5k)
        else {
            Issue.record("expected TC5k")
            return
        }
        #expect(status.firmwareVersion == "1.00")
        #expect(status.protocolVersion == "04")
        #expect(status.isBatteryOK)
    }

    @Test(arguments: [(T.iOSIsometric, 9.77627372697), (T.frame("IS100/IS"), 108.625263633), (T.frame("IS0/IS"), 0.0)])
    func legacyIsometricScalesToNewtons(bytes: [UInt8], newtons: Double) throws {
        let value = try Activ5Notification.decode(characteristic: T.legacyMessages, bytes: bytes)
        #expect(abs(try #require(value.newtons) - newtons) < 1e-9)
    }

    @Test(arguments: [
        (T.hex("00 FF"), Int16(-256), -69.52016872704),
        (T.hex("10 00 FF FF"), 16, 4.34501054544),
        (T.hex("FF 7F"), 32767, 8898.31003390203),
        (T.hex("00 00"), 0, 0),
    ])
    func newForceIsInt16LittleEndianScaledToNewtons(bytes: [UInt8], raw: Int16, newtons: Double) throws {
        let value = try Activ5Notification.decode(characteristic: T.force, bytes: bytes)
        #expect(value == .force(raw: raw))
        #expect(abs(try #require(value.newtons) - newtons) < 1e-6)
    }

    @Test func syntheticIMUVectorIsOneTwoHalfGAnd250500125DegreesPerSecond() throws {
        guard case .imu(let sample) = try Activ5Notification.decode(characteristic: "F0F5", bytes: T.syntheticIMU)
        else {
            Issue.record("expected an IMU sample")
            return
        }
        #expect(sample.rawAcceleration == Activ5RawAxes(x: 4095, y: 8190, z: 2047))
        #expect(sample.rawAngularVelocity == Activ5RawAxes(x: 4095, y: 8190, z: 2047))
        #expect(sample.rawTimestamp == 118_032_786)
        #expect(abs(sample.acceleration.x - 1) < 1e-9)
        #expect(abs(sample.acceleration.y - 2) < 1e-9)
        #expect(abs(sample.acceleration.z - 0.5) < 0.001)
        let degrees = 180 / Double.pi
        #expect(abs(sample.angularVelocity.x * degrees - 250) < 1e-9)
        #expect(abs(sample.angularVelocity.y * degrees - 500) < 1e-9)
        #expect(abs(sample.angularVelocity.z * degrees - 125) < 0.1)
        #expect(abs(sample.angularVelocity.x - 4.3633) < 1e-4)
        #expect(abs(sample.angularVelocity.y - 8.7266) < 1e-4)
        #expect(abs(sample.angularVelocity.z - 2.18) < 0.01)
        #expect(abs(sample.timestampSeconds - 1800) < 1e-4)
    }

    @Test func realisticIMUVectorIsADeviceLyingStill() throws {
        let sample = try Activ5IMUSample(bytes: T.realisticIMU)
        #expect(sample.rawAcceleration == Activ5RawAxes(x: 62, y: -270, z: 4267))
        #expect(sample.rawAngularVelocity == Activ5RawAxes(x: -10, y: -34, z: -20))
        #expect(sample.rawTimestamp == 1_452_770)
        #expect(abs(sample.acceleration.z - 1.042) < 0.001)
        #expect(abs(sample.angularVelocity.y - (-34 * 250 / 4095 * Double.pi / 180)) < 1e-12)
        #expect(abs(sample.timestampSeconds - 22.1547425) < 1e-9)
    }

    @Test func imuTimestampIsSigned() throws {
        let sample = try Activ5IMUSample(bytes: [UInt8](repeating: 0, count: 12) + T.hex("00 00 00 80"))
        #expect(sample.rawTimestamp == Int32.min)
        #expect(sample.timestampSeconds < 0)
    }

    @Test(arguments: [
        (T.deviceID1, Array("5F3C2A10".utf8), Activ5Notification.deviceIDPart(.first, "5F3C2A10")),
        (T.deviceID2, Array("9B7E".utf8) + [0, 0, 0, 0], .deviceIDPart(.second, "9B7E")),
        (T.serial, Array("A5-00042".utf8), .serialNumber("A5-00042")),
        (T.serial, Array("A5-00042".utf8) + [0], .serialNumber("A5-00042")),
        (T.battery, [0x57], .batteryLevel(87)),
        (T.battery, [0x64, 0x01], .batteryLevel(100)),
    ])
    func readValuesDecode(characteristic: String, bytes: [UInt8], expected: Activ5Notification) throws {
        #expect(try Activ5Notification.decode(characteristic: characteristic, bytes: bytes) == expected)
    }

    @Test(arguments: [
        (T.legacyMessages, [UInt8](), Activ5DecodeReason.empty),
        (T.legacyMessages, Array("IS9/IS".utf8) + [0x13], .missingFrameStart),
        (T.legacyMessages, [0x12] + Array("IS9/IS".utf8), .missingFrameEnd),
        (T.legacyMessages, [0x13, 0x12, 0x49], .missingFrameEnd),
        (T.legacyMessages, T.frame("IS12x/IS"), .malformedMessage("IS12x/IS")),
        (T.legacyMessages, T.frame("IS12"), .malformedMessage("IS12")),
        (T.legacyMessages, T.frame("IS/IS"), .malformedMessage("IS/IS")),
        (T.legacyMessages, T.frame("TC5k"), .malformedMessage("TC5k")),
        (T.legacyMessages, T.frame("TC5k;"), .malformedMessage("TC5k;")),
        (T.force, [], .empty),
        (T.force, [0x01], .tooShort(minimum: 2, actual: 1)),
        (T.imu, Array(T.syntheticIMU.prefix(15)), .tooShort(minimum: 16, actual: 15)),
        (T.imu, [], .empty),
        (T.deviceID1, [0xFF, 0xFE], .invalidText),
        (T.serial, [0xC3], .invalidText),
        (T.battery, [], .empty),
        (T.legacyCommands, T.hex("41 53 54 4F 50 21 19"), .unsupportedCharacteristic),
        (T.timestamp, [0, 0, 0, 0], .unsupportedCharacteristic),
        ("0000f0f1-0000-1000-8000-00805f9b34fb", [0, 0], .unsupportedCharacteristic),
    ])
    func malformedInputThrows(characteristic: String, bytes: [UInt8], reason: Activ5DecodeReason) {
        #expect(throws: Activ5DecodeError(characteristic: characteristic, reason: reason)) {
            try Activ5Notification.decode(characteristic: characteristic, bytes: bytes)
        }
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let characteristics = [T.legacyMessages, T.force, T.imu, T.deviceID1, T.deviceID2, T.serial, T.battery]
        for _ in 0..<2000 {
            let length = Int.random(in: 0...24, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Bias towards the framing bytes so legacy parsing goes deep.
            bytes = bytes.map { $0 % 7 == 0 ? 0x12 : $0 % 11 == 0 ? 0x13 : $0 }
            for characteristic in characteristics {
                _ = try? Activ5Notification.decode(characteristic: characteristic, bytes: bytes)
            }
        }
    }
}
