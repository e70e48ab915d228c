import Testing

@testable import Peripherals

@Suite struct BeltHandshakeTests {
    @Test func stepsFollowTheMinimalCommonHandshake() {
        let described: [String] = BeltHandshake.steps.map { step in
            switch step {
            case .subscribe(let uuid): "subscribe \(uuid.prefix(8))"
            case .request(let command, let prefix):
                "write \(command.encoded().map { String($0, radix: 16) }) expect \(prefix.map { String($0, radix: 16) })"
            case .readFirmware: "read firmware"
            case .readBattery: "read battery"
            }
        }
        #expect(
            described == [
                "subscribe 0000fe02", "subscribe 0000fe06", "subscribe 0000fe04", "subscribe 0000fe09",
                "write [\"1\", \"1\"] expect [\"1\", \"1\"]", "write [\"1\", \"2\"] expect [\"1\", \"2\"]",
                "read firmware", "read battery", "write [\"1\", \"3\"] expect [\"1\", \"3\"]",
                "write [\"10\", \"1\", \"3\"] expect [\"10\", \"3\"]", "subscribe 0000fe0c",
            ])
        #expect(BeltHandshake.steps[4].characteristicUUID == "0000fe05-0000-1000-8000-00805f9b34fb")
        #expect(BeltHandshake.steps[6].characteristicUUID == "0000fe01-0000-1000-8000-00805f9b34fb")
    }

    @Test func requestStepsAreAnsweredByMatchingPrefixOnly() {
        let modeStep = BeltHandshakeStep.request(.requestMode, expectPrefix: [0x01, 0x01])
        #expect(modeStep.isAnswered(by: .parameter(.mode(.wait))))
        #expect(!modeStep.isAnswered(by: .parameter(.defaultIntensity(50))))
        #expect(!modeStep.isAnswered(by: .keepAlive(mode: .wait)))
        let accuracyStep = BeltHandshakeStep.request(
            .requestAdvancedParameter(.accuracySignal), expectPrefix: [0x10, 0x03])
        #expect(accuracyStep.isAnswered(by: .parameter(.accuracySignal(.default))))
        #expect(BeltHandshakeStep.readFirmware.isAnswered(by: .firmware(BeltFirmwareInfo(version: 52))))
        #expect(
            BeltHandshakeStep.readBattery.isAnswered(
                by: .battery(BeltBatteryStatus(powerStatus: .battery, levelPercent: 50, timeSeconds: 60))))
        #expect(!BeltHandshakeStep.readBattery.isAnswered(by: .firmware(BeltFirmwareInfo(version: 52))))
        #expect(!BeltHandshakeStep.subscribe(BeltGATT.Characteristic.keepAlive).isAnswered(by: .keepAlive(mode: .app)))
    }

    @Test func completeOnceModeIntensityAndFirmwareAreKnown() {
        var progress = BeltHandshakeProgress()
        #expect(!progress.isComplete)
        #expect(progress.missing == ["mode", "default intensity", "firmware"])
        progress.record(.parameter(.mode(.wait)))
        progress.record(.parameter(.defaultIntensity(50)))
        #expect(progress.missing == ["firmware"])
        progress.record(.firmware(BeltFirmwareInfo(version: 45)))
        #expect(progress.isComplete)
        #expect(progress.headingOffset == nil)
        #expect(progress.accuracySignal == nil)
        progress.record(.parameter(.headingOffset(45)))
        progress.record(.parameter(.accuracySignal(.default)))
        #expect(progress.headingOffset == 45)
        #expect(progress.accuracySignal == .default)
    }

    @Test func keepAliveAndAdvancedFormsCount() {
        var progress = BeltHandshakeProgress()
        progress.record(.keepAlive(mode: .app))
        progress.record(.parameter(.advancedDefaultIntensity(30)))
        progress.record(.parameter(.advancedHeadingOffset(90)))
        #expect(progress.mode == .app)
        #expect(progress.defaultIntensity == 30)
        #expect(progress.headingOffset == 90)
    }

    /// Runs the handshake against the simulator's state machine, end to end and byte for byte.
    @Test func handshakeCompletesAgainstSimulatedBelt() throws {
        var belt = BeltState(mode: .wait, defaultIntensity: 40, headingOffset: 45)
        var progress = BeltHandshakeProgress()
        for step in BeltHandshake.steps {
            switch step {
            case .subscribe: continue
            case .request(let command, _):
                let request = try BeltRequest.decode(
                    characteristic: command.characteristicUUID, bytes: command.encoded())
                let replies = try belt.apply(request).map {
                    try BeltNotification.decode(characteristic: $0.characteristicUUID, bytes: $0.encoded())
                }
                #expect(replies.contains { step.isAnswered(by: $0) })
                for reply in replies { progress.record(reply) }
            case .readFirmware:
                let value = try BeltNotification.decode(
                    characteristic: BeltGATT.Characteristic.firmwareInfo, bytes: belt.firmware.encoded())
                #expect(step.isAnswered(by: value))
                progress.record(value)
            case .readBattery:
                let value = try BeltNotification.decode(
                    characteristic: BeltGATT.Characteristic.batteryStatus, bytes: belt.battery.encoded())
                #expect(step.isAnswered(by: value))
                guard case .battery(let status) = value else { continue }
                #expect(
                    status.levelPercent == belt.battery.levelPercent && status.powerStatus == belt.battery.powerStatus)
            }
        }
        #expect(progress.isComplete)
        #expect(progress.mode == .wait)
        #expect(progress.defaultIntensity == 40)
        #expect(progress.firmware == BeltFirmwareInfo(version: 52, variant: 0))
        #expect(progress.headingOffset == 45)
        #expect(progress.accuracySignal == .default)
    }
}
