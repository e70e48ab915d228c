import BlueZ
import Peripherals
import Testing

@testable import Bridge

/// A belt session driven in memory: the in-memory belt answers the handshake's requests as the belt
/// does (FE06 notifications, firmware and battery reads), so the session's whole connect, its telemetry,
/// its keep-alive answers and its commands run without BlueZ, a bus or a broker, byte for byte against
/// the Peripherals encoders.
struct BeltSessionTests {
    private let id = "001122334466"
    private let sink = RecordingSink()
    private let metrics = DeviceMetrics()
    private let link = InMemoryDevices.belt()

    private func connectedSession() async -> InMemorySession<ProfileSession<BeltFamilyProfile>> {
        let driver = BeltDriver()
        let context = InMemorySession<ProfileSession<BeltFamilyProfile>>.context(
            link: link, sink: sink, id: id, driver: driver, metrics: metrics)
        return await .connected(driver.session(for: link.device, context: context), sink: sink)
    }

    @Test func theHandshakeReadsWhatTheBeltAnswersAndPublishesIt() async throws {
        let belt = await connectedSession()
        #expect(sink.payloads(on: "belt/\(id)/mode").last == "app")
        #expect(sink.payloads(on: "belt/\(id)/intensity").last == "50")
        #expect(sink.payloads(on: "belt/\(id)/heading_offset").last == "45")
        #expect(sink.payloads(on: "belt/\(id)/info").last?.contains(#""firmware":"#) == true)
        #expect(sink.payloads(on: "belt/\(id)/navigation").last == "stopped")
        let requests = await link.writes.filter { $0.characteristic == BeltCommand.requestMode.characteristicUUID }.map(
            \.bytes)
        #expect(
            requests == [
                BeltCommand.requestMode.encoded(), BeltCommand.requestDefaultIntensity.encoded(),
                BeltCommand.requestHeadingOffset.encoded(),
                BeltCommand.requestAdvancedParameter(.accuracySignal).encoded(),
            ])
        await belt.end()
        #expect(sink.payloads(on: "belt/\(id)/mode").last == "", "live state is cleared when the link ends")
    }

    @Test func headingsArePublishedKeepAlivesAnsweredAndMalformedBytesCounted() async throws {
        let belt = await connectedSession()
        let orientation = BeltOrientation(beltHeading: 273, boxHeading: 228, accuracy: 5)
        await link.notify(BeltGATT.Characteristic.orientation, BeltNotification.orientation(orientation).encoded())
        await link.notify(BeltGATT.Characteristic.orientation, [0x01, 0x02])
        await link.notify(BeltGATT.Characteristic.keepAlive, BeltNotification.keepAlive(mode: .app).encoded())
        await link.notify(
            BeltGATT.Characteristic.orientation,
            BeltNotification.orientation(BeltOrientation(beltHeading: 90, boxHeading: 0, accuracy: 5)).encoded())
        await sink.next(on: "belt/\(id)/heading") { $0 == "90" }
        #expect(sink.payloads(on: "belt/\(id)/heading") == ["273", "90"])
        #expect(metrics.snapshot["belt/\(id)"]?.decodeErrors == 1)
        // The keep-alive's answer is written beside the session; it is there once the session has caught up.
        let deadline = ContinuousClock.now + .seconds(5)
        while await !link.writes.contains(where: { $0.characteristic == BeltGATT.Characteristic.keepAlive }),
            ContinuousClock.now < deadline
        {
            await Task.yield()
        }
        #expect(
            await link.writes.last { $0.characteristic == BeltGATT.Characteristic.keepAlive }?.bytes
                == BeltCommand.keepAliveAck.encoded())
        await belt.end()
    }

    /// A belt that switched off while the gateway connected (its standby came during the handshake, before the session
    /// was connected) ends as one that switches off later: `power_off`, `disconnected`, no `link_lost`. In the real
    /// tier on a slow host the belt's power button was pressed during a handshake, and the link was reported lost.
    @Test(.timeLimit(.minutes(1))) func aBeltInStandbyAtTheHandshakeEndsTheConnectionCleanly() async throws {
        let standby = InMemoryDevices.belt(mode: .standby)
        let driver = BeltDriver()
        let context = InMemorySession<ProfileSession<BeltFamilyProfile>>.context(
            link: standby, sink: sink, id: id, driver: driver, metrics: metrics)
        let belt = await InMemorySession.connected(driver.session(for: standby.device, context: context), sink: sink)
        await sink.next(on: "belt/\(id)/connection") { $0 == "disconnected" }
        #expect(sink.payloads(on: "belt/\(id)/event") == ["power_off"])
        #expect(sink.payloads(on: "belt/\(id)/error").isEmpty, "\(sink.payloads(on: "belt/\(id)/error"))")
        await belt.end()
    }

    /// A belt in standby is switching off, and the gateway ends the link: BlueZ reports the drop while the gateway
    /// disconnects, which used to be published as `link_lost`. It is no error (topics.md: "a device switching
    /// itself off is no error"): `power_off`, then `disconnected`, and nothing on `error`.
    @Test func standbyEndsTheConnectionWithoutALostLink() async throws {
        let belt = await connectedSession()
        let session = belt.session
        await link.onDisconnect { await session.linkDidDrop() }
        await link.notify(BeltGATT.Characteristic.keepAlive, BeltNotification.keepAlive(mode: .standby).encoded())
        await sink.next(on: "belt/\(id)/connection") { $0 == "disconnected" }
        #expect(sink.payloads(on: "belt/\(id)/mode").contains("standby"))
        #expect(sink.payloads(on: "belt/\(id)/event") == ["power_off"])
        #expect(sink.payloads(on: "belt/\(id)/error").isEmpty, "\(sink.payloads(on: "belt/\(id)/error"))")
        await belt.end()
    }

    @Test func aCommandIsWrittenAsParsedAndBadInputNeverReachesTheBelt() async throws {
        let belt = await connectedSession()
        let session = belt.session
        let before = await link.writes.count
        let stop = try BeltDriver().parse(command: "stop", payload: CommandPayload(bytes: Array("{}".utf8)))
        _ = try await session.execute(stop)
        #expect(await link.writes.dropFirst(before).map(\.bytes) == [BeltCommand.stopAll.encoded()])
        #expect(throws: CommandError.self) {
            try BeltDriver().parse(command: "stop", payload: CommandPayload(bytes: Array(#"{"channel":9}"#.utf8)))
        }
        #expect(await link.writes.count == before + 1)
        await belt.end()
    }
}
