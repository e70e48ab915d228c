import Testing

@testable import Peripherals

/// Device→host encoders of the simulator, against the same vectors the bridge decodes.
@Suite struct Activ5NotificationEncodingTests {
    typealias T = Activ5TestBytes

    @Test(arguments: [
        (Activ5Notification.legacy(.initial(Activ5DeviceStatus(firmwareVersion: "1.00"))), T.tc5k),
        (.legacy(.isometric(raw: 100)), T.hex("12 49 53 31 30 30 2F 49 53 13")),
        (.legacy(.isometric(raw: 9)), T.hex("12 49 53 39 2F 49 53 13")),
        (.legacy(.isometric(raw: -3)), T.hex("12 49 53 2D 33 2F 49 53 13")),
        (.legacy(.serialNumberPart(.first, "A5SIM0")), T.hex("12 41 53 4E 31 41 35 53 49 4D 30 13")),
        (.legacy(.serialNumberPart(.second, "01")), T.hex("12 41 53 4E 32 30 31 13")),
        (.legacy(.deviceIDPart(.first, "5F")), T.hex("12 41 69 35 46 13")),
        (.legacy(.deviceIDPart(.second, "9B")), T.hex("12 41 49 39 42 13")),
        (.force(raw: -256), T.hex("00 FF")),
        (.force(raw: 256), T.hex("00 01")),
        (.deviceIDPart(.first, "5F3C"), T.hex("35 46 33 43")),
        (.serialNumber("A5"), T.hex("41 35")),
        (.batteryLevel(87), T.hex("57")),
    ])
    func notificationsAreByteExact(notification: Activ5Notification, bytes: [UInt8]) throws {
        #expect(notification.encoded() == bytes)
        // Every encoding decodes back to the same value on its own characteristic.
        #expect(
            try Activ5Notification.decode(characteristic: notification.characteristicUUID, bytes: bytes) == notification
        )
    }

    @Test(arguments: [T.syntheticIMU, T.realisticIMU])
    func imuPacketsReencodeUnchanged(bytes: [UInt8]) throws {
        let notification = try Activ5Notification.decode(characteristic: T.imu, bytes: bytes)
        #expect(notification.encoded() == bytes)
        #expect(notification.characteristicUUID == T.imu)
    }

    @Test func imuSampleFromPhysicalUnitsRoundsToWireCounts() {
        let sample = Activ5IMUSample(
            acceleration: Activ5Vector3(x: 1, y: 2, z: 0.25),
            angularVelocity: Activ5Vector3(
                x: 250 * Double.pi / 180, y: 500 * Double.pi / 180, z: -90 * Double.pi / 180),
            timestampSeconds: 1800)
        // 0.25 g = 1023.75 counts and -90 °/s = -1474.2 counts, rounded to the nearest count.
        #expect(sample.rawAcceleration == Activ5RawAxes(x: 4095, y: 8190, z: 1024))
        #expect(sample.rawAngularVelocity == Activ5RawAxes(x: 4095, y: 8190, z: -1474))
        // 1800 s / 15.25 µs = 118032786.9 ticks, counted down to whole ticks.
        #expect(sample.rawTimestamp == 118_032_786)
        #expect(Array(sample.encoded().suffix(4)) == T.hex("92 09 09 07"))
    }

    @Test func imuSampleClampsAndWraps() {
        let sample = Activ5IMUSample(
            acceleration: Activ5Vector3(x: 100, y: -100, z: .nan), angularVelocity: .zero,
            timestampSeconds: 70_000)
        #expect(sample.rawAcceleration == Activ5RawAxes(x: 32767, y: -32768, z: 0))
        // 70000 s = 4590163934 ticks, past 2^32: the counter has wrapped to 4590163934 - 4294967296.
        #expect(sample.rawTimestamp == 295_196_638)
    }

    @Test func staleBufferTailReproducesTheIOSVector() {
        var buffer = Activ5LegacyFrameBuffer()
        let first = buffer.transmit(.initial(Activ5DeviceStatus(firmwareVersion: "1.01")))
        #expect(first == T.hex("12 54 43 35 6B 3B 31 2E 30 31 3B 30 34 3B 42 41 54 4F 4B 13"))
        #expect(buffer.transmit(.isometric(raw: 9)) == T.iOSIsometric)
        // A longer frame overwrites more of the tail.
        #expect(
            buffer.transmit(.isometric(raw: 1234))
                == T.hex("12 49 53 31 32 33 34 2F 49 53 13 30 34 3B 42 41 54 4F 4B 13"))
    }

    @Test func freshBufferSendsBareFrames() {
        var buffer = Activ5LegacyFrameBuffer()
        #expect(buffer.transmit(.isometric(raw: 5)) == T.hex("12 49 53 35 2F 49 53 13"))
    }

    @Test(arguments: [(0.0, 0), (108.625263633, 100), (-2.2, -2), (.nan, 0)])
    func legacyRawRoundsNewtons(newtons: Double, raw: Int) {
        #expect(Activ5ForceScale.legacyRaw(newtons: newtons) == raw)
    }

    @Test(arguments: [(0.0, Int16(0)), (69.52016872704, 256), (1e9, 32767), (-1e9, -32768), (.infinity, 0)])
    func newRawRoundsAndClampsNewtons(newtons: Double, raw: Int16) {
        #expect(Activ5ForceScale.newRaw(newtons: newtons) == raw)
    }

    @Test func newResolutionIsAQuarterOfLegacy() {
        #expect(abs(Activ5ForceScale.newtonsPerCount(.new) * 4 - Activ5ForceScale.newtonsPerCount(.legacy)) < 1e-10)
    }
}
