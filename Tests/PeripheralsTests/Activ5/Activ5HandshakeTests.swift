import Testing

@testable import Peripherals

@Suite struct Activ5HandshakeTests {
    typealias T = Activ5TestBytes

    @Test func legacyStepsFollowIOS() {
        #expect(
            Activ5Handshake.steps(for: .legacy) == [
                .subscribe(T.legacyMessages), .awaitInitialMessage, .write(.handshakeReply),
                .request(.requestDeviceID(.first)), .request(.requestDeviceID(.second)),
                .request(.requestSerialNumber(.first)), .request(.requestSerialNumber(.second)),
            ])
        #expect(Activ5Handshake.steps(for: .legacy)[2].characteristicUUID == T.legacyCommands)
    }

    @Test func newStepsReadIdentityAndSkipLegacyRequests() {
        #expect(
            Activ5Handshake.steps(for: .new) == [
                .read(T.serial), .read(T.deviceID1), .read(T.deviceID2), .subscribe(T.legacyMessages),
                .awaitInitialMessage, .write(.handshakeReply),
            ])
    }

    @Test func stepsFollowWhatIsPresent() {
        // Without the legacy channel there is nothing to write to.
        #expect(
            Activ5Handshake.steps(availableCharacteristics: ["2A25", "F0F7", "F0F8", "F0FE"]) == [
                .read(T.serial), .read(T.deviceID1), .read(T.deviceID2),
            ])
        // One ID half present is enough to skip ID1!/ID2!, as on iOS; 2A25 missing means SN1!/SN2!.
        #expect(
            Activ5Handshake.steps(availableCharacteristics: ["5A01", "5A02", "F0F7"]) == [
                .read(T.deviceID1), .subscribe(T.legacyMessages), .awaitInitialMessage, .write(.handshakeReply),
                .request(.requestSerialNumber(.first)), .request(.requestSerialNumber(.second)),
            ])
    }

    @Test func stepsAreAnsweredByTheMatchingValueOnly() {
        #expect(
            Activ5HandshakeStep.awaitInitialMessage.isAnswered(
                by: .legacy(.initial(Activ5DeviceStatus(firmwareVersion: "1.00")))))
        #expect(!Activ5HandshakeStep.awaitInitialMessage.isAnswered(by: .legacy(.isometric(raw: 3))))
        let id2 = Activ5HandshakeStep.request(.requestDeviceID(.second))
        #expect(id2.isAnswered(by: .legacy(.deviceIDPart(.second, "9B"))))
        #expect(!id2.isAnswered(by: .legacy(.deviceIDPart(.first, "9B"))))
        #expect(!id2.isAnswered(by: .deviceIDPart(.second, "9B")))
        #expect(
            Activ5HandshakeStep.request(.requestSerialNumber(.first)).isAnswered(
                by: .legacy(.serialNumberPart(.first, "A"))))
        #expect(Activ5HandshakeStep.read("F0F8").isAnswered(by: .deviceIDPart(.second, "9B")))
        #expect(!Activ5HandshakeStep.read("F0F8").isAnswered(by: .deviceIDPart(.first, "9B")))
        #expect(Activ5HandshakeStep.read(T.serial).isAnswered(by: .serialNumber("X")))
        #expect(!Activ5HandshakeStep.write(.handshakeReply).isAnswered(by: .legacy(.unknown(""))))
        #expect(!Activ5HandshakeStep.write(.handshakeReply).expectsAnswer)
        #expect(Activ5HandshakeStep.awaitInitialMessage.expectsAnswer)
    }

    @Test func legacyProgressNeedsNoTC5kButTakesItAndJoinsSerialHalves() throws {
        var progress = Activ5HandshakeProgress(wireProtocol: .legacy)
        #expect(progress.isComplete && progress.firmwareVersion == nil)
        progress.record(try Activ5Notification.decode(characteristic: T.legacyMessages, bytes: T.tc5k))
        #expect(progress.isComplete)
        #expect(progress.firmwareVersion == "1.00")
        #expect(progress.protocolVersion == "04")
        progress.record(.legacy(.serialNumberPart(.first, "A5SIM0")))
        #expect(progress.serialNumber == nil)
        progress.record(.legacy(.serialNumberPart(.second, "000001")))
        #expect(progress.serialNumber == "A5SIM0000001")
    }

    @Test func newProgressNeedsSerialAndBothIDHalves() throws {
        var progress = Activ5HandshakeProgress(wireProtocol: .new)
        #expect(progress.missing == ["serial number", "device id"])
        progress.record(try Activ5Notification.decode(characteristic: T.serial, bytes: Array("A5-00042".utf8)))
        progress.record(try Activ5Notification.decode(characteristic: T.deviceID1, bytes: Array("5F3C2A10".utf8)))
        #expect(progress.missing == ["device id"])
        progress.record(try Activ5Notification.decode(characteristic: T.deviceID2, bytes: Array("9B7E".utf8) + [0, 0]))
        #expect(progress.isComplete)
        #expect(progress.deviceID == "5F3C2A109B7E")
        #expect(progress.serialNumber == "A5-00042")
        #expect(progress.firmwareVersion == nil)
    }

    /// The bridge's steps run against the simulator's state, bytes crossing in both directions.
    @Test(arguments: Activ5Protocol.allCases)
    func handshakeCompletesAgainstTheSimulator(wireProtocol: Activ5Protocol) throws {
        var device = Activ5State(
            wireProtocol: wireProtocol, serialNumber: "A5SIM0000001", deviceIDPart1: "5F3C2A10", deviceIDPart2: "9B7E")
        var progress = Activ5HandshakeProgress(wireProtocol: wireProtocol)
        var pending: [Activ5Notification] = []
        var time = 0.0
        for step in Activ5Handshake.steps(for: wireProtocol) {
            time += 0.05
            var replies: [Activ5Notification] = []
            switch step {
            case .subscribe(let uuid): replies = device.apply(.subscribe(uuid), at: time)
            case .read(let uuid):
                let bytes = try #require(device.readValue(characteristic: uuid, at: time))
                replies = [try Activ5Notification.decode(characteristic: uuid, bytes: bytes)]
            case .awaitInitialMessage: break
            case .write(let command), .request(let command):
                let request = try Activ5Request.decode(
                    characteristic: command.characteristicUUID, bytes: command.encoded())
                replies = device.apply(request, at: time)
            }
            // Notifications travel as bytes.
            pending += try replies.map {
                try Activ5Notification.decode(characteristic: $0.characteristicUUID, bytes: $0.encoded())
            }
            if step.expectsAnswer {
                let answer = try #require(pending.firstIndex { step.isAnswered(by: $0) }, "\(step) unanswered")
                progress.record(pending.remove(at: answer))
            }
        }
        #expect(progress.isComplete)
        #expect(device.handshakeReceived)
        #expect(progress.serialNumber == "A5SIM0000001")
        #expect(progress.deviceID == "5F3C2A109B7E")
        #expect(progress.firmwareVersion == "1.00")
    }
}
