import Testing

@testable import Peripherals

/// The simulated device's answers (activ5.md §10).
@Suite struct Activ5StateTests {
    typealias T = Activ5TestBytes

    @Test func subscribingTo5A01SendsTC5k() {
        var state = Activ5State(wireProtocol: .legacy)
        let replies = state.apply(.subscribe("5A01"), at: 0)
        #expect(replies.map { $0.encoded() } == [T.tc5k])
        #expect(replies.map(\.characteristicUUID) == [T.legacyMessages])
        #expect(state.apply(.handshakeReply, at: 0.1).isEmpty)
        #expect(state.handshakeReceived)
    }

    @Test func isomStreamsISFramesOnlyWhile5A01IsSubscribed() {
        var state = Activ5State(wireProtocol: .legacy)
        state.appliedNewtons = 108.625263633
        #expect(state.apply(.startIsometric, at: 0).isEmpty)
        // Web writes ISOM! before subscribing; nothing can be delivered until it does.
        #expect(state.legacyForceNotification() == nil)
        _ = state.apply(.subscribe(T.legacyMessages), at: 0.1)
        #expect(state.legacyForceNotification()?.encoded() == T.hex("12 49 53 31 30 30 2F 49 53 13"))
        _ = state.apply(.stop, at: 1)
        #expect(state.legacyForceNotification() == nil)
        #expect(!state.isStreaming)
    }

    @Test func tareZeroesTheAppliedForce() {
        var state = Activ5State(wireProtocol: .legacy)
        _ = state.apply(.subscribe(T.legacyMessages), at: 0)
        _ = state.apply(.startIsometric, at: 0)
        state.appliedNewtons = 13.035
        #expect(state.legacyForceNotification() == .legacy(.isometric(raw: 12)))
        _ = state.apply(.tare, at: 1)
        #expect(state.tareOffsetNewtons == 13.035)
        #expect(state.legacyForceNotification() == .legacy(.isometric(raw: 0)))
        state.appliedNewtons = 13.035 + 108.625263633
        #expect(state.legacyForceNotification() == .legacy(.isometric(raw: 100)))
    }

    @Test func legacyRequestsAreAnsweredWithHalves() {
        var state = Activ5State(
            wireProtocol: .legacy, serialNumber: "A5SIM0000001", deviceIDPart1: "5F3C2A10", deviceIDPart2: "9B7E")
        #expect(state.apply(.requestSerialNumber(.first), at: 0) == [.legacy(.serialNumberPart(.first, "A5SIM0"))])
        #expect(state.apply(.requestSerialNumber(.second), at: 0) == [.legacy(.serialNumberPart(.second, "000001"))])
        #expect(state.apply(.requestDeviceID(.first), at: 0) == [.legacy(.deviceIDPart(.first, "5F3C2A10"))])
        #expect(
            state.apply(.requestDeviceID(.second), at: 0).map { $0.encoded() } == [T.hex("12 41 49 39 42 37 45 13")])
        state.serialNumber = "ABC"
        #expect(state.apply(.requestSerialNumber(.first), at: 0) == [.legacy(.serialNumberPart(.first, "AB"))])
        #expect(state.apply(.requestSerialNumber(.second), at: 0) == [.legacy(.serialNumberPart(.second, "C"))])
    }

    @Test func newProfileStreamsForceOnF0FEWhileSubscribed() {
        var state = Activ5State(wireProtocol: .new)
        state.appliedNewtons = 69.52016872704
        #expect(state.forceNotification() == nil)
        #expect(state.apply(.subscribe("F0FE"), at: 0).isEmpty)
        #expect(state.forceNotification()?.encoded() == T.hex("00 01"))
        #expect(state.isStreaming)
        // STOP! (the keep-alive) does not end a CCCD-driven stream.
        _ = state.apply(.stop, at: 1)
        #expect(state.forceNotification() != nil)
        _ = state.apply(.unsubscribe(T.force), at: 2)
        #expect(state.forceNotification() == nil)
        #expect(!state.isStreaming)
    }

    @Test func legacyProfileHasNoF0xxStreamsOrReads() {
        var state = Activ5State(wireProtocol: .legacy)
        _ = state.apply(.subscribe(T.force), at: 0)
        _ = state.apply(.subscribe(T.imu), at: 0)
        #expect(state.forceNotification() == nil)
        #expect(state.imuNotification(at: 1) == nil)
        #expect(state.readValue(characteristic: T.serial, at: 0) == nil)
        #expect(!state.isStreaming)
    }

    @Test func samplePeriodSetsTheForcePeriod() {
        var state = Activ5State(wireProtocol: .new)
        #expect(state.forcePeriodSeconds == 0.1)
        _ = state.apply(.setSamplePeriod(milliseconds: 25), at: 0)
        #expect(state.samplePeriodMilliseconds == 25)
        #expect(state.forcePeriodSeconds == 0.025)
    }

    @Test func imuSamplesCarryTheConfiguredMotionAndTicks() throws {
        var state = Activ5State(wireProtocol: .new)
        _ = state.apply(.subscribe(T.imu), at: 0)
        state.angularVelocity = Activ5Vector3(x: 250 * Double.pi / 180, y: 0, z: 0)
        let notification = try #require(state.imuNotification(at: 1800))
        #expect(notification.characteristicUUID == T.imu)
        #expect(notification.encoded() == T.hex("00 00 00 00 FF 0F FF 0F 00 00 00 00 92 09 09 07"))
        _ = state.apply(.unsubscribe(T.imu), at: 2000)
        #expect(state.imuNotification(at: 2001) == nil)
    }

    @Test func readsDecodeOnTheBridgeSide() throws {
        let state = Activ5State(
            wireProtocol: .new, serialNumber: "A5-00042", deviceIDPart1: "5F3C2A10", deviceIDPart2: "9B7E",
            batteryLevel: 55)
        let part2 = try #require(state.readValue(characteristic: "F0F8", at: 0))
        #expect(part2 == Array("9B7E".utf8) + [UInt8](repeating: 0, count: 12))
        #expect(
            try Activ5Notification.decode(characteristic: T.deviceID2, bytes: part2) == .deviceIDPart(.second, "9B7E"))
        #expect(state.readValue(characteristic: T.deviceID1, at: 0) == Array("5F3C2A10".utf8))
        #expect(state.readValue(characteristic: T.serial, at: 0) == Array("A5-00042".utf8))
        #expect(state.readValue(characteristic: T.battery, at: 0) == [55])
        #expect(state.readValue(characteristic: T.timestamp, at: 1800) == T.hex("92 09 09 07"))
        #expect(state.readValue(characteristic: T.force, at: 0) == nil)
    }

    @Test func powersOffAfterSevenIdleMinutesInStopMode() {
        var state = Activ5State(wireProtocol: .legacy, connectedAt: 100)
        #expect(!state.isPoweredOff(at: 519.9))
        #expect(state.isPoweredOff(at: 520))
        // The evergreen STOP! restarts the idle time.
        _ = state.apply(.stop, at: 400)
        #expect(!state.isPoweredOff(at: 819))
        #expect(state.isPoweredOff(at: 820))
        // Reads are not commands and do not keep it awake.
        _ = state.readValue(characteristic: T.serial, at: 810)
        #expect(state.isPoweredOff(at: 820))
        // A host connecting again restarts it too.
        state.hostConnected(at: 900)
        #expect(!state.isPoweredOff(at: 1319))
        #expect(state.isPoweredOff(at: 1320))
    }

    @Test func neverPowersOffWhileStreaming() {
        var state = Activ5State(wireProtocol: .new, idlePowerOffSeconds: 10)
        _ = state.apply(.subscribe(T.force), at: 0)
        #expect(!state.isPoweredOff(at: 10_000))
        _ = state.apply(.unsubscribe(T.force), at: 10_000)
        #expect(!state.isPoweredOff(at: 10_009))
        #expect(state.isPoweredOff(at: 10_010))
        _ = state.apply(.startIsometric, at: 10_010)
        #expect(!state.isPoweredOff(at: 20_000))
    }

    @Test func oldHandshakeMessagesAreRecordedWithoutReply() {
        var state = Activ5State(wireProtocol: .legacy)
        #expect(state.apply(.gapiHandshake, at: 0).isEmpty)
        #expect(state.apply(.setDate(digits: "22112019"), at: 0).isEmpty)
        #expect(state.apply(.setTime(digits: "123000"), at: 0).isEmpty)
        #expect(state.apply(.heartRate, at: 0).isEmpty)
        #expect(state.handshakeReceived)
        #expect(state.lastDateDigits == "22112019")
        #expect(state.lastTimeDigits == "123000")
    }
}
