import Testing

@testable import Peripherals

@Suite struct BeltRequestDecodingTests {
    static let fe02 = "0000fe02-0000-1000-8000-00805f9b34fb"
    static let fe03 = "0000fe03-0000-1000-8000-00805f9b34fb"
    static let fe05 = "0000fe05-0000-1000-8000-00805f9b34fb"
    static let fe07 = "0000fe07-0000-1000-8000-00805f9b34fb"

    @Test(arguments: [[UInt8]([0x01]), [0x00, 0x00], [0x00], []])
    func anyKeepAliveAckIsAccepted(payload: [UInt8]) throws {
        #expect(try BeltRequest.decode(characteristic: Self.fe02, bytes: payload) == .keepAliveAck(payload: payload))
    }

    @Test(arguments: [
        ([UInt8]([0x01, 0x81, 0x03]), BeltRequest.changeMode(.app)),
        ([0x01, 0x81, 0x03, 0x00], .changeMode(.app)),
        ([0x01, 0x81, 0x00], .changeMode(.standby)),
        ([0x01, 0x81, 0x06, 0x00], .changeMode(.crossing)),
        ([0x01, 0x01], .requestMode),
        ([0x01, 0x02], .requestDefaultIntensity),
        ([0x01, 0x03], .requestHeadingOffset),
        ([0x01, 0x04], .requestName),
        ([0x01, 0x82, 0x32, 0x00, 0x01], .changeDefaultIntensity(50, vibrationFeedback: true)),
        ([0x01, 0x82, 0x02, 0x00, 0x00], .changeDefaultIntensity(2, vibrationFeedback: false)),
        ([0x01, 0x83, 0x67, 0x01], .changeHeadingOffset(359)),
        ([0x01, 0x84, 0x58, 0x59], .rename(suffix: "XY")),
        ([0x10, 0x01, 0x03], .requestAdvancedParameter(id: 3)),
        ([0x10, 0x01, 0x0A], .requestAdvancedParameter(id: 10)),
        ([0x11, 0x01, 0x01, 0x2D, 0x00], .setHeadingOffset(45, persist: true)),
        ([0x11, 0x03, 0x00, 0x01], .setAccuracySignal(.compassMode, persist: false)),
        ([0x11, 0x0F, 0x00, 0x14, 0x00], .setOrientationPeriod(milliseconds: 20, persist: false)),
        ([0x11, 0x25, 0x01, 0x00], .setPairingRequirement(required: false, persist: true)),
        (
            [0x11, 0x0A, 0x02, 0xE1, 0x00, 0xA0, 0x00, 0xE1, 0x00, 0x01],
            .setOtherAdvancedParameter(id: 0x0A, payload: [0x02, 0xE1, 0x00, 0xA0, 0x00, 0xE1, 0x00, 0x01])
        ),
        ([0x12, 0x01, 0x01, 0x00], .reset(parameters: true, bluetooth: true, sensors: false)),
    ])
    func parameterRequests(bytes: [UInt8], expected: BeltRequest) throws {
        #expect(try BeltRequest.decode(characteristic: Self.fe05, bytes: bytes) == expected)
    }

    @Test(arguments: [
        ([UInt8]([0x30, 0xFF]), BeltRequest.stop(channel: nil)),
        ([0x30, 0x05], .stop(channel: 5)),
        ([0x20, 0x01], .systemSignal(.destinationReached)),
    ])
    func shortVibrationCommands(bytes: [UInt8], expected: BeltRequest) throws {
        #expect(try BeltRequest.decode(characteristic: "FE03", bytes: bytes) == expected)
    }

    @Test(arguments: [UInt8(0x00), 0xFF])
    func iterationsZeroAndFFMeanForever(code: UInt8) throws {
        let bytes: [UInt8] = [
            0x02, 0x01, 0xAA, 0xAA, 0x00, 0x00, 0x03, 0x5A, 0x00, 0x00, 0x00, code, 0xF4, 0x01, 0x00, 0x00, 0x00, 0x00,
        ]
        guard case .vibrate(let configuration) = try BeltRequest.decode(characteristic: Self.fe03, bytes: bytes) else {
            Issue.record("expected a channel configuration")
            return
        }
        #expect(configuration.iterations == nil)
        #expect(configuration.intensity == nil)
        #expect(configuration.channel == 2)
        #expect(configuration.pattern == .continuous)
        #expect(configuration.orientationType == .bearing)
        #expect(configuration.orientationValue == 90)
        #expect(configuration.periodMs == 500)
    }

    @Test func channelConfigurationFieldsAreRead() throws {
        let bytes: [UInt8] = [
            0x04, 0x09, 0x46, 0x00, 0x00, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0xC8, 0xE8, 0x03, 0x64, 0x00, 0x01, 0x01,
        ]
        let request = try BeltRequest.decode(characteristic: Self.fe03, bytes: bytes)
        guard case .vibrate(let configuration) = request else {
            Issue.record("expected a channel configuration, got \(request)")
            return
        }
        #expect(configuration.channel == 4)
        #expect(configuration.pattern == .destinationReached)
        #expect(configuration.intensity == 70)
        #expect(configuration.orientationType == .binaryMask)
        #expect(configuration.orientationValue == 0x1111)
        #expect(configuration.iterations == 200)  // iOS allows up to 254 counted iterations
        #expect(configuration.periodMs == 1000)
        #expect(configuration.startTimeMs == 100)
        #expect(configuration.exclusive)
        #expect(configuration.clearOthers)
    }

    @Test func pulseFieldsAreRead() throws {
        let bytes: [UInt8] = [
            0x40, 0x01, 0x02, 0x0E, 0x01, 0xAA, 0x64, 0x00, 0x00, 0xFF, 0xFA, 0x00, 0xD0, 0x07, 0x02, 0x01, 0x00,
        ]
        guard case .pulse(let pulse) = try BeltRequest.decode(characteristic: Self.fe03, bytes: bytes) else {
            Issue.record("expected a pulse")
            return
        }
        #expect(pulse.channel == 1)
        #expect(pulse.orientationType == .angle)
        #expect(pulse.orientationValue == 270)
        #expect(pulse.intensity == nil)
        #expect(pulse.onDurationMs == 100)
        #expect(pulse.pulseIterations == 0)  // Android allows 0
        #expect(pulse.seriesIterations == nil)
        #expect(pulse.pulsePeriodMs == 250)
        #expect(pulse.seriesPeriodMs == 2000)
        #expect(pulse.timerOption == .keep)
        #expect(pulse.exclusive)
        #expect(!pulse.clearOthers)
    }

    @Test func buzzerPatternIsRead() throws {
        let request = try BeltRequest.decode(characteristic: Self.fe07, bytes: [0x01, 0x02, 0x20, 0x40, 0x0A, 0x14])
        let expected = try BuzzerTonePattern(steps: [
            BuzzerTone(frequencyCode: 0x20, durationCentiseconds: 10),
            BuzzerTone(frequencyCode: 0x40, durationCentiseconds: 20),
        ])
        #expect(request == .buzzer(expected))
    }

    @Test func developerWritesAreKeptRaw() throws {
        let fe13 = "0000fe13-0000-1000-8000-00805f9b34fb"
        #expect(
            try BeltRequest.decode(characteristic: "FE13", bytes: [0x02])
                == .developerCommand(characteristic: fe13, bytes: [0x02]))
    }

    @Test(arguments: [
        (fe05, [UInt8](), BeltWriteRefusalReason.empty),
        (fe05, [0x01], .invalidLength(actual: 1)),
        (fe05, [0x01, 0x81], .invalidLength(actual: 2)),
        (fe05, [0x01, 0x81, 0x03, 0x00, 0x00], .invalidLength(actual: 5)),
        (fe05, [0x01, 0x81, 0x09], .outOfRange(field: "mode", value: 9)),
        (fe05, [0x01, 0x82, 0x65, 0x00, 0x00], .outOfRange(field: "intensity", value: 101)),
        (fe05, [0x01, 0x82, 0x32, 0x00], .invalidLength(actual: 4)),
        (fe05, [0x01, 0x83, 0x68, 0x01], .outOfRange(field: "headingOffset", value: 360)),
        (fe05, [0x11, 0x03, 0x00, 0x04], .outOfRange(field: "accuracySignal", value: 4)),
        (fe05, [0x11, 0x0F, 0x00, 0x13, 0x00], .outOfRange(field: "milliseconds", value: 19)),
        (fe05, [0x02, 0x01], .unknownOpcode([0x02, 0x01])),
        (fe03, [0x06, 0x01], .unknownOpcode([0x06])),
        (fe03, [0x30], .invalidLength(actual: 1)),
        (fe03, [0x30, 0x06], .outOfRange(field: "channel", value: 6)),
        (fe03, [0x20, 0x03], .outOfRange(field: "signal", value: 3)),
        (fe03, [0x00, 0x01, 0xAA, 0xAA], .invalidLength(actual: 4)),
        (
            fe03, [0x00, 0x1B, 0xAA, 0xAA, 0, 0, 0x02, 0, 0, 0, 0, 0, 0xF4, 0x01, 0, 0, 0, 0],
            .outOfRange(field: "pattern", value: 27)
        ),
        (
            fe03, [0x00, 0x01, 0x65, 0x00, 0, 0, 0x02, 0, 0, 0, 0, 0, 0xF4, 0x01, 0, 0, 0, 0],
            .outOfRange(field: "intensity", value: 101)
        ),
        (
            fe03, [0x00, 0x01, 0xAA, 0xAA, 0, 0, 0x04, 0, 0, 0, 0, 0, 0xF4, 0x01, 0, 0, 0, 0],
            .outOfRange(field: "orientationType", value: 4)
        ),
        (
            fe03, [0x00, 0x01, 0xAA, 0xAA, 0, 0, 0x02, 0x68, 0x01, 0, 0, 0, 0xF4, 0x01, 0, 0, 0, 0],
            .outOfRange(field: "orientationValue", value: 360)
        ),
        (
            fe03, [0x00, 0x01, 0xAA, 0xAA, 0, 0, 0x01, 0x10, 0x00, 0, 0, 0, 0xF4, 0x01, 0, 0, 0, 0],
            .outOfRange(field: "orientationValue", value: 16)
        ),
        (
            fe03, [0x40, 0x06, 0x02, 0, 0, 0xAA, 0x64, 0, 1, 0, 0xFA, 0, 0xFA, 0, 0, 0, 0],
            .outOfRange(field: "channel", value: 6)
        ),
        (
            fe03, [0x40, 0x00, 0x02, 0, 0, 0xAA, 0x64, 0, 1, 0, 0xFA, 0, 0xFA, 0, 3, 0, 0],
            .outOfRange(field: "timerOption", value: 3)
        ),
        (fe07, [0x01, 0x02, 0x20, 0x40, 0x0A], .invalidLength(actual: 5)),
        (fe07, [0x01, 0x0A] + [UInt8](repeating: 0, count: 20), .outOfRange(field: "steps", value: 10)),
        (fe07, [0x02, 0x00], .unknownOpcode([0x02])),
        ("0000fe06-0000-1000-8000-00805f9b34fb", [0x01, 0x01], .notWritable),
    ])
    func invalidWritesAreRejected(uuid: String, bytes: [UInt8], reason: BeltWriteRefusalReason) {
        #expect(throws: BeltRequestError(characteristic: uuid, reason: reason)) {
            try BeltRequest.decode(characteristic: uuid, bytes: bytes)
        }
    }

    @Test func rejectionsMapToBlueZErrors() {
        #expect(
            BeltRequestError(characteristic: Self.fe05, reason: .empty).bluezErrorName
                == "org.bluez.Error.InvalidValueLength")
        #expect(
            BeltRequestError(characteristic: Self.fe05, reason: .notWritable).bluezErrorName
                == "org.bluez.Error.NotPermitted")
        #expect(
            BeltRequestError(characteristic: Self.fe05, reason: .unknownOpcode([2])).bluezErrorName
                == "org.bluez.Error.NotSupported")
    }

    /// The bridge's encoders and the simulator's parser agree on every command.
    @Test func everyBridgeCommandParsesBack() throws {
        let channel = try ChannelConfiguration(
            channel: 3, pattern: .doubleShort, intensity: 40, orientationType: .motorIndex, orientationValue: 12,
            iterations: 5, periodMs: 800, startTimeMs: 10, exclusive: true)
        let pulse = try PulseConfiguration(
            channel: 1, orientationType: .bearing, orientationValue: 10, onDurationMs: 50, pulseIterations: 2,
            seriesIterations: 4, pulsePeriodMs: 150, seriesPeriodMs: 1000)
        let tones = try BuzzerTonePattern(steps: [BuzzerTone(frequencyHz: 440, durationMs: 500)])
        let pairs: [(BeltCommand, BeltRequest)] = [
            (.keepAliveAck, .keepAliveAck(payload: [0x00])),
            (.requestMode, .requestMode),
            (.changeMode(.pause), .changeMode(.pause)),
            (
                .changeDefaultIntensity(80, vibrationFeedback: true),
                .changeDefaultIntensity(80, vibrationFeedback: true)
            ),
            (.changeHeadingOffset(degrees: 10), .changeHeadingOffset(10)),
            (.rename(suffix: "Bob"), .rename(suffix: "Bob")),
            (.requestAdvancedParameter(.orientationPeriod), .requestAdvancedParameter(id: 0x0F)),
            (.setHeadingOffset(degrees: 90, persist: false), .setHeadingOffset(90, persist: false)),
            (.setAccuracySignal(.appMode, persist: true), .setAccuracySignal(.appMode, persist: true)),
            (.setOrientationPeriod(milliseconds: 100), .setOrientationPeriod(milliseconds: 100, persist: false)),
            (
                .setPairingRequirement(required: true, persist: false),
                .setPairingRequirement(required: true, persist: false)
            ),
            (
                .reset(parameters: false, bluetooth: false, sensors: true),
                .reset(parameters: false, bluetooth: false, sensors: true)
            ),
            (.vibrate(channel), .vibrate(channel)),
            (.pulse(pulse), .pulse(pulse)),
            (.stopAll, .stop(channel: nil)),
            (.stopChannel(4), .stop(channel: 4)),
            (.systemSignal(.batteryLevel), .systemSignal(.batteryLevel)),
            (.buzzer(tones), .buzzer(tones)),
        ]
        for (command, request) in pairs {
            #expect(
                try BeltRequest.decode(characteristic: command.characteristicUUID, bytes: command.encoded()) == request)
        }
    }
}
