import MQTT
import TestSupport
import Testing

@testable import Bridge

/// Retained requests are not requests (issue #56), whole but in memory: a request or command that the broker's store
/// delivers (retained, at a start or after a reconnect) is answered `retained`, never acted on, and cleared, so that
/// it comes once; one sent as usual still works. And `restart` is refused for a while after the start (`too_soon`).
/// Against mosquitto: `GatewayRequestTests.aRetainedRestartIsRefusedAndCleared`.
@Suite(.timeLimit(.minutes(1))) struct GatewayRetainedRequestTests {
    /// Starts gateway `test` in `world` after `retained` (topic, payload) pairs were left on the broker, and returns
    /// it with the answers on `answerTopic` (one per retained request, in order).
    private func start(
        in world: InMemoryWorld, leaving retained: [(String, String)], answeredOn answerTopic: String,
        configure: (inout BridgeConfiguration) -> Void = { _ in }, options: (any GatewayOptionsHandler)? = nil
    ) async throws -> (InMemoryGateway, String) {
        let mark = world.probe.mark
        for (topic, payload) in retained { try world.publish(topic, payload, retain: true) }
        let gateway = try await InMemoryGateway.start(in: world, configure: configure, options: options)
        let answer = await world.probe.next(on: answerTopic, after: mark).payloadString ?? ""
        return (gateway, answer)
    }

    private func request(_ gateway: InMemoryGateway, _ name: String, _ payload: String) async throws -> String {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/test/request/\(name)", payload)
        return await gateway.probe.next(on: "gatt2mqtt/test/response/\(name)", after: mark).payloadString ?? ""
    }

    /// The restart loop: a retained `restart` came at every start and restarted the gateway again. Now it is
    /// answered `retained` with its transaction, the gateway keeps running, and the broker no longer holds it (the
    /// echo of that clearing, an empty message, is not taken for a `{}` restart). A restart sent as usual restarts.
    @Test func aRetainedRestartIsRefusedClearedAndNotActedOn() async throws {
        try await InMemoryWorld.with { world in
            let topic = "gatt2mqtt/test/request/restart"
            let (gateway, answer) = try await start(
                in: world, leaving: [(topic, #"{"transaction":"r1"}"#)], answeredOn: "gatt2mqtt/test/response/restart")
            try await withCleanUp({ await gateway.stop() }) { () async throws in
                #expect(answer.hasPrefix(#"{"error":{"code":"retained","message":"a retained request is not taken"#))
                #expect(answer.hasSuffix(#""ok":false,"request":"restart","transaction":"r1"}"#), "\(answer)")
                #expect(world.broker.retained(topic) == nil, "cleared")
                // A barrier: answered after the echo of the clearing went through the receive path, which took it.
                #expect(try await request(gateway, "devices", "{}").contains(#""ok":true"#))
                #expect(gateway.bridge.context.publisher.clearings.count == 0, "the echo was recognised as one")
                #expect(world.broker.retained("gatt2mqtt/test/status")?.payloadString == "online")
                #expect(!gateway.log.lines.contains { $0.contains("restart requested over MQTT") })
                #expect(gateway.probe.payloads(on: "gatt2mqtt/test/response/restart").count == 1)
                // Logged before the answer went out, as every refusal is.
                #expect(gateway.log.lines.contains { $0.contains("request refused") && $0.contains("code=retained") })

                // Sent as usual, a restart restarts.
                #expect(
                    try await request(gateway, "restart", "{}")
                        == #"{"data":{"restarting":true},"ok":true,"request":"restart"}"#)
                let ended = await gateway.ended
                #expect(throws: RestartRequested.self) { try ended.get() }
            }
        }
    }

    /// A retained `permit_join` opened a join window (up to an hour) at every start. Now it is refused and cleared,
    /// the window stays shut (a device in range stays a stranger), and one sent as usual opens it.
    @Test func aRetainedPermitJoinIsRefusedAndTheWindowStaysShut() async throws {
        try await InMemoryWorld.with { world in
            let topic = "gatt2mqtt/test/request/permit_join"
            let (gateway, answer) = try await start(
                in: world, leaving: [(topic, #"{"duration_s":3600}"#)],
                answeredOn: "gatt2mqtt/test/response/permit_join",
                configure: { $0.autoConnect = .adopted([]) })
            try await withCleanUp({ await gateway.stop() }) {
                #expect(answer.contains(#""code":"retained""#) && answer.contains(#""ok":false"#), "\(answer)")
                #expect(world.broker.retained(topic) == nil, "cleared")
                let band = InMemoryDevices.cprBand()
                gateway.central.add(band)
                let devices = try await request(gateway, "devices", "{}")
                #expect(devices.contains(#""address":"\#(band.device.address)","adopted":false"#), "\(devices)")
                #expect(
                    !gateway.probe.payloads(on: "gatt2mqtt/test/permit_join").contains { $0.contains(#""open":true"#) })
                #expect(await !band.isConnected)

                #expect(
                    try await request(gateway, "permit_join", #"{"duration_s":60}"#)
                        == #"{"data":{"open":true,"remaining_s":60},"ok":true,"request":"permit_join"}"#)
                await gateway.probe.next(on: "cpr/\(DeviceID.from(address: band.device.address))/connection") {
                    $0 == "connected"
                }
            }
        }
    }

    /// A retained `options` request is refused and cleared, and changes nothing; one sent as usual changes the allow
    /// list.
    @Test func aRetainedOptionsRequestChangesNothing() async throws {
        let allowed = "00:11:22:33:44:55"
        var made = BridgeConfiguration(mqtt: .init(host: "in-memory"), adapters: ["hci0"], gateway: "test")
        made.autoConnect = .allowList([allowed])
        let standIn = GatewayOptionsRequestTests.StandIn(base: made)
        try await InMemoryWorld.with { world in
            let topic = "gatt2mqtt/test/request/options"
            let change = #"{"options":{"devices":{"allow":["00:11:22:33:44:56"]}}}"#
            let (gateway, answer) = try await start(
                in: world, leaving: [(topic, change)], answeredOn: "gatt2mqtt/test/response/options",
                configure: { $0.autoConnect = .allowList([allowed]) }, options: standIn)
            try await withCleanUp({ await gateway.stop() }) {
                #expect(answer.contains(#""code":"retained""#) && answer.contains(#""ok":false"#), "\(answer)")
                #expect(world.broker.retained(topic) == nil, "cleared")
                #expect(gateway.bridge.context.live.autoConnect == .allowList([allowed]), "nothing changed")
                #expect(!gateway.log.lines.contains { $0.contains("options changed over MQTT") })

                let applied = try await request(gateway, "options", change)
                #expect(applied.contains(#""ok":true"#), "\(applied)")
                #expect(gateway.bridge.context.live.autoConnect == .allowList(["00:11:22:33:44:56"]))
            }
        }
    }

    /// A retained command reaches a connected device's gateway after a reconnect (the restored subscription brings
    /// it, retained): it is answered `retained`, cleared, and never written to the device; the same command sent as
    /// usual is.
    @Test func aRetainedCommandIsRefusedClearedAndNeverWritten() async throws {
        try await InMemoryGateway.with { gateway in
            let belt = InMemoryDevices.belt()
            let id = await gateway.connect(belt, family: "belt")
            let written = await belt.writes.count
            let topic = "belt/\(id)/cmd/mode"
            // Left on the broker while the gateway was away; it comes when the gateway subscribes again.
            gateway.broker.keep(
                MQTTMessage(topic: topic, string: #"{"mode":"app","transaction":5}"#, qos: .atLeastOnce))
            let mark = gateway.probe.mark
            gateway.resubscribe()
            let refusal = await gateway.probe.next(on: "belt/\(id)/reply", after: mark).payloadString ?? ""
            #expect(refusal.contains(#""code":"retained","message":"a retained command is not taken"#), "\(refusal)")
            #expect(refusal.contains(#""ok":false"#) && refusal.contains(#""transaction":5"#), "\(refusal)")
            #expect(gateway.broker.retained(topic) == nil, "cleared")
            #expect(await belt.writes.count == written, "nothing written")

            try gateway.publish(topic, #"{"mode":"app","transaction":6}"#, responseTopic: "reply/test/mode")
            let done = await gateway.probe.next(on: "reply/test/mode").payloadString ?? ""
            #expect(done.contains(#""ok":true"#) && done.contains(#""transaction":6"#), "\(done)")
            #expect(await belt.writes.count > written, "sent as usual, it is written")
            #expect(gateway.probe.payloads(on: "belt/\(id)/reply").count == 1, "the retained one answered once")
            #expect(gateway.bridge.context.publisher.clearings.count == 0, "the echo was recognised as one")
            // Logged before the answer went out, as every refusal is.
            #expect(gateway.log.lines.contains { $0.contains("command refused") && $0.contains("code=retained") })
        }
    }

    /// A restart moments after the start is refused, saying when one is taken; the gateway keeps running.
    @Test func aRestartTooSoonAfterTheStartIsRefused() async throws {
        try await InMemoryGateway.with(configure: { $0.restartHoldOff = .seconds(120) }) { gateway in
            let answer = try await request(gateway, "restart", #"{"transaction":2}"#)
            #expect(answer.hasPrefix(#"{"error":{"code":"too_soon","message":"the gateway started "#), "\(answer)")
            #expect(answer.contains("a restart is taken 120 s after a start (limits.restart_holdoff_s): from 20"))
            #expect(answer.hasSuffix(#" s"},"ok":false,"request":"restart","transaction":2}"#), "\(answer)")
            let wait = answer.firstMatch(of: #/, in (\d+) s"/#).flatMap { Int($0.1) }
            #expect(wait.map { (100...120).contains($0) } == true, "the rest of the 120 s: \(answer)")
            #expect(try await request(gateway, "devices", "{}").contains(#""ok":true"#), "still serving")
            #expect(gateway.broker.retained("gatt2mqtt/test/status")?.payloadString == "online")
            #expect(!gateway.log.lines.contains { $0.contains("restart requested over MQTT") })
        }
    }
}

/// The table of clearings that wait for their echo: taken once, lapsing, bounded.
@Suite struct RetainedClearingsTests {
    @Test func anEchoIsTakenOnceAndOnlyOnItsTopicWhileItIsDue() {
        let clearings = RetainedClearings()
        let now = ContinuousClock.now
        #expect(clearings.record("a", at: now))
        #expect(!clearings.takeEcho("b", at: now), "another topic")
        #expect(clearings.takeEcho("a", at: now + .seconds(1)))
        #expect(!clearings.takeEcho("a", at: now + .seconds(1)), "once")
        #expect(clearings.record("c", at: now))
        #expect(!clearings.takeEcho("c", at: now + RetainedClearings.echoWindow), "lapsed: a real empty message")
        #expect(clearings.count == 0)
    }

    @Test func theTableIsBoundedAndMakesRoomOnceEntriesLapse() {
        let clearings = RetainedClearings()
        let now = ContinuousClock.now
        for index in 0..<RetainedClearings.limit { #expect(clearings.record("t\(index)", at: now)) }
        #expect(!clearings.record("one more", at: now), "full")
        #expect(clearings.record("t0", at: now), "a topic already waiting is cleared again")
        #expect(clearings.record("one more", at: now + RetainedClearings.echoWindow), "the lapsed ones make room")
        #expect(clearings.count == 1)
    }
}
