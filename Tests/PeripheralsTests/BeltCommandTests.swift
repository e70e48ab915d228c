import Testing

@testable import Peripherals

@Suite struct BeltCommandTests {
    static let parameterRequest = "0000fe05-0000-1000-8000-00805f9b34fb"
    static let vibration = "0000fe03-0000-1000-8000-00805f9b34fb"

    @Test(arguments: [
        (BeltCommand.requestMode, [UInt8]([0x01, 0x01])),
        (.requestDefaultIntensity, [0x01, 0x02]),
        (.requestHeadingOffset, [0x01, 0x03]),
        (.requestName, [0x01, 0x04]),
        (.changeMode(.app), [0x01, 0x81, 0x03, 0x00]),
        (.changeMode(.pause), [0x01, 0x81, 0x04, 0x00]),
        (.changeMode(.crossing), [0x01, 0x81, 0x06, 0x00]),
        (.changeDefaultIntensity(50, vibrationFeedback: true), [0x01, 0x82, 0x32, 0x00, 0x01]),
        (.changeDefaultIntensity(100, vibrationFeedback: false), [0x01, 0x82, 0x64, 0x00, 0x00]),
        (.changeHeadingOffset(degrees: 300), [0x01, 0x83, 0x2C, 0x01]),
        (.changeHeadingOffset(degrees: -45), [0x01, 0x83, 0x3B, 0x01]),
        (.rename(suffix: "AB"), [0x01, 0x84, 0x41, 0x42]),
        (.requestAdvancedParameter(.accuracySignal), [0x10, 0x01, 0x03]),
        (.requestAdvancedParameter(.pairingRequirement), [0x10, 0x01, 0x25]),
        (.setHeadingOffset(degrees: 45, persist: true), [0x11, 0x01, 0x01, 0x2D, 0x00]),
        (.setHeadingOffset(degrees: 405, persist: false), [0x11, 0x01, 0x00, 0x2D, 0x00]),
        (.setAccuracySignal(.default, persist: false), [0x11, 0x03, 0x00, 0x03]),
        (.setAccuracySignal(.compassMode, persist: false), [0x11, 0x03, 0x00, 0x01]),
        (.setAccuracySignal([], persist: true), [0x11, 0x03, 0x01, 0x00]),
        (.setOrientationPeriod(milliseconds: 500), [0x11, 0x0F, 0x00, 0xF4, 0x01]),
        (.setOrientationPeriod(milliseconds: 20), [0x11, 0x0F, 0x00, 0x14, 0x00]),
        (.setPairingRequirement(required: false, persist: true), [0x11, 0x25, 0x01, 0x00]),
        (.reset(parameters: true, bluetooth: false, sensors: true), [0x12, 0x01, 0x00, 0x01]),
    ])
    func parameterCommandsAreByteExact(command: BeltCommand, bytes: [UInt8]) throws {
        try command.validate()
        #expect(command.encoded() == bytes)
        #expect(command.characteristicUUID == Self.parameterRequest)
    }

    @Test(arguments: [
        (BeltCommand.stopAll, [UInt8]([0x30, 0xFF])),
        (.stopChannel(2), [0x30, 0x02]),
        (.systemSignal(.warning), [0x20, 0x00]),
        (.systemSignal(.destinationReached), [0x20, 0x01]),
        (.systemSignal(.batteryLevel), [0x20, 0x02]),
    ])
    func vibrationCommandsAreByteExact(command: BeltCommand, bytes: [UInt8]) throws {
        try command.validate()
        #expect(command.encoded() == bytes)
        #expect(command.characteristicUUID == Self.vibration)
    }

    @Test func keepAliveAckIsOneZeroByteOnFE02() {
        #expect(BeltCommand.keepAliveAck.encoded() == [0x00])
        #expect(BeltCommand.keepAliveAck.characteristicUUID == "0000fe02-0000-1000-8000-00805f9b34fb")
    }

    @Test func fullChannelConfigurationIsEighteenBytes() throws {
        let configuration = try ChannelConfiguration(
            channel: 1, pattern: .singleShort, intensity: 50, orientationType: .bearing, orientationValue: 90,
            iterations: nil, periodMs: 500)
        let command = BeltCommand.vibrate(configuration)
        #expect(command.characteristicUUID == Self.vibration)
        #expect(
            command.encoded() == [
                0x01, 0x02, 0x32, 0x00, 0x00, 0x00, 0x03, 0x5A, 0x00, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00, 0x00, 0x00,
                0x00,
            ])
    }

    @Test func channelConfigurationWithDefaultIntensityAndFlags() throws {
        let configuration = try ChannelConfiguration(
            channel: 5, pattern: .doubleLong, orientationType: .angle, orientationValue: -90, iterations: 127,
            periodMs: 65535, startTimeMs: 258, exclusive: true, clearOthers: true)
        #expect(
            configuration.encoded() == [
                0x05, 0x05, 0xAA, 0xAA, 0x00, 0x00, 0x02, 0x0E, 0x01, 0x00, 0x00, 0x7F, 0xFF, 0xFF, 0x02, 0x01, 0x01,
                0x01,
            ])
    }

    @Test(arguments: [
        (OrientationType.angle, 720, UInt16(0)),
        (.angle, -1, 359),
        (.bearing, 361, 1),
        (.bearing, -725, 355),
        (.motorIndex, 17, 1),
        (.motorIndex, -1, 15),
        (.binaryMask, 0b1111_11, 0b1111_11),
    ])
    func orientationValuesAreNormalised(type: OrientationType, value: Int, expected: UInt16) throws {
        let configuration = try ChannelConfiguration(
            channel: 0, pattern: .continuous, orientationType: type, orientationValue: value, periodMs: 100)
        #expect(configuration.orientationValue == expected)
    }

    @Test func pulseIsSeventeenBytes() throws {
        let pulse = try PulseConfiguration(
            channel: 2, orientationType: .angle, orientationValue: 45, intensity: nil, onDurationMs: 100,
            pulseIterations: 3, seriesIterations: 2, pulsePeriodMs: 250, seriesPeriodMs: 2000, timerOption: .keep,
            exclusive: true)
        let command = BeltCommand.pulse(pulse)
        #expect(command.characteristicUUID == Self.vibration)
        #expect(
            command.encoded() == [
                0x40, 0x02, 0x02, 0x2D, 0x00, 0xAA, 0x64, 0x00, 0x03, 0x02, 0xFA, 0x00, 0xD0, 0x07, 0x02, 0x01, 0x00,
            ])
    }

    @Test func pulseForeverWithIntensity() throws {
        let pulse = try PulseConfiguration(
            channel: 0, orientationType: .motorIndex, orientationValue: 4, intensity: 80, onDurationMs: 300,
            pulsePeriodMs: 600, seriesPeriodMs: 600)
        #expect(
            pulse.encoded() == [
                0x40, 0x00, 0x01, 0x04, 0x00, 0x50, 0x2C, 0x01, 0x01, 0x00, 0x58, 0x02, 0x58, 0x02, 0x01, 0x00, 0x00,
            ])
    }

    @Test func buzzerPatternListsFrequenciesThenDurations() throws {
        let pattern = try BuzzerTonePattern(steps: [
            BuzzerTone(frequencyHz: 1000, durationMs: 200),
            BuzzerTone(frequencyHz: 0, durationMs: 100),
            BuzzerTone(frequencyHz: 2000, durationMs: 2550),
        ])
        let command = BeltCommand.buzzer(pattern)
        #expect(command.characteristicUUID == "0000fe07-0000-1000-8000-00805f9b34fb")
        #expect(command.encoded() == [0x01, 0x03, 0x20, 0x00, 0x40, 0x14, 0x0A, 0xFF])
    }
}
