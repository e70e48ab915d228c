import Testing

@testable import Peripherals

@Suite struct BeltCommandValidationTests {
    private func channelError(
        channel: Int = 0, pattern: VibrationPattern = .continuous, intensity: Int? = nil,
        type: OrientationType = .angle, value: Int = 0, iterations: Int? = nil, period: Int = 500, start: Int = 0
    ) -> FieldError? {
        do {
            _ = try ChannelConfiguration(
                channel: channel, pattern: pattern, intensity: intensity, orientationType: type,
                orientationValue: value, iterations: iterations, periodMs: period, startTimeMs: start)
            return nil
        } catch {
            return error
        }
    }

    @Test func channelConfigurationErrorsNameTheirField() {
        #expect(channelError(channel: 6)?.field == "channel")
        #expect(channelError(channel: -1)?.field == "channel")
        #expect(channelError(intensity: 101)?.field == "intensity")
        #expect(channelError(intensity: -1)?.field == "intensity")
        #expect(channelError(iterations: 0)?.field == "iterations")
        #expect(channelError(iterations: 128)?.field == "iterations")
        #expect(channelError(period: 0)?.field == "periodMs")
        #expect(channelError(period: 65536)?.field == "periodMs")
        #expect(channelError(start: -1)?.field == "startTimeMs")
        #expect(channelError(type: .binaryMask, value: 0x7F)?.field == "orientationValue")
        #expect(channelError(type: .binaryMask, value: 0x1_0000)?.field == "orientationValue")
        #expect(channelError(pattern: .warning, type: .binaryMask, value: 1)?.field == "pattern")
        #expect(channelError(pattern: .batteryLevel13, type: .binaryMask, value: 1)?.field == "pattern")
    }

    @Test func validBoundariesPass() {
        #expect(channelError(channel: 5, intensity: 0, iterations: 1, period: 1) == nil)
        #expect(channelError(intensity: 100, iterations: 127, period: 65535) == nil)
        #expect(channelError(pattern: .warning, type: .motorIndex, value: 0) == nil)
        #expect(channelError(type: .binaryMask, value: 0b0011_1111) == nil)
    }

    @Test func errorCarriesAMessage() {
        let error = channelError(channel: 9)
        #expect(error == FieldError(field: "channel", message: "9 is outside 0…5"))
    }

    private func pulseError(
        channel: Int = 0, intensity: Int? = nil, onDuration: Int = 100, pulses: Int = 1, series: Int? = nil,
        pulsePeriod: Int = 200, seriesPeriod: Int = 200
    ) -> FieldError? {
        do {
            _ = try PulseConfiguration(
                channel: channel, orientationType: .angle, orientationValue: 0, intensity: intensity,
                onDurationMs: onDuration, pulseIterations: pulses, seriesIterations: series,
                pulsePeriodMs: pulsePeriod, seriesPeriodMs: seriesPeriod)
            return nil
        } catch {
            return error
        }
    }

    @Test func pulseErrorsNameTheirField() {
        #expect(pulseError() == nil)
        #expect(pulseError(channel: 6)?.field == "channel")
        #expect(pulseError(intensity: 170)?.field == "intensity")
        #expect(pulseError(onDuration: 0)?.field == "onDurationMs")
        #expect(pulseError(pulses: 0)?.field == "pulseIterations")
        #expect(pulseError(pulses: 256)?.field == "pulseIterations")
        #expect(pulseError(series: 128)?.field == "seriesIterations")
        #expect(pulseError(pulsePeriod: 0)?.field == "pulsePeriodMs")
        #expect(pulseError(seriesPeriod: 70000)?.field == "seriesPeriodMs")
    }

    @Test(arguments: [
        (BeltCommand.changeDefaultIntensity(101, vibrationFeedback: false), "intensity"),
        (.changeDefaultIntensity(-5, vibrationFeedback: false), "intensity"),
        (.rename(suffix: ""), "suffix"),
        (.rename(suffix: "ThisSuffixIsTooLong!"), "suffix"),
        (.rename(suffix: "Gürtel"), "suffix"),
        (.setOrientationPeriod(milliseconds: 19), "milliseconds"),
        (.setOrientationPeriod(milliseconds: 65536), "milliseconds"),
        (.stopChannel(6), "channel"),
    ])
    func commandErrorsNameTheirField(command: BeltCommand, field: String) {
        #expect(throws: FieldError.self) { try command.validate() }
        do {
            try command.validate()
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func clampedEncodingNeverTraps() {
        #expect(BeltCommand.changeDefaultIntensity(300, vibrationFeedback: false).encoded()[2] == 100)
        #expect(BeltCommand.stopChannel(-3).encoded() == [0x30, 0x00])
        #expect(BeltCommand.setOrientationPeriod(milliseconds: 1).encoded() == [0x11, 0x0F, 0x00, 0x14, 0x00])
    }

    @Test func buzzerErrorsNameTheirField() {
        #expect(throws: FieldError(field: "steps", message: "0 is outside 1…9")) {
            try BuzzerTonePattern(steps: [])
        }
        #expect(throws: FieldError.self) { try BuzzerTone(frequencyHz: 8000, durationMs: 10) }
        do {
            _ = try BuzzerTone(frequencyHz: 440, durationMs: 2560)
        } catch {
            #expect(error.field == "durationMs")
        }
    }
}
