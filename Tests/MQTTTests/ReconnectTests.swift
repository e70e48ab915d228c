import Foundation
import MQTT
import TestSupport
import Testing

@Suite(.serialized) struct ReconnectTests {
    @Test func brokerRestartRestoresSubscriptionsAndRetainedState() async throws {
        try await withBroker { broker in
            let bridge = try await broker.connectedClient("bridge")
            try await broker.subscribe(bridge, to: "bridge/cmd/#")
            let log = try broker.log
            let mark = log.lineCount
            try bridge.publish(
                MQTTMessage(topic: "bridge/devices/belt/state", string: "connected", qos: .atLeastOnce, retain: true))
            try bridge.publish(
                MQTTMessage(topic: "bridge/devices/old/state", string: "stale", qos: .atLeastOnce, retain: true))
            // An empty retained payload deletes: this one must not come back after the restart.
            try bridge.publish(
                MQTTMessage(topic: "bridge/devices/old/state", payload: [], qos: .atLeastOnce, retain: true))
            try await log.waitForLine(containing: "Sending PUBACK to bridge (m3", after: mark)

            // Without persistence the new broker knows nothing: no session, no retained messages.
            try await broker.restart()
            let restarted = try broker.log
            _ = try await nextEvent(from: bridge) { if case .disconnected = $0 { true } else { false } }
            #expect(
                try await nextEvent(from: bridge) { if case .connected = $0 { true } else { false } }
                    == .connected(sessionPresent: false))
            try await restarted.waitForLine(containing: "Sending SUBACK to bridge")
            try await restarted.waitForLine(containing: "Received PUBLISH from bridge (d0, q1, r1, m")
            #expect(bridge.statistics.reconnects == 1)

            // Re-subscribed: a command from mosquitto_pub reaches the bridge.
            try await broker.mosquittoPub(["-t", "bridge/cmd/vibrate", "-m", "go", "-q", "1"])
            let command = try await nextMessage(from: bridge)
            #expect(command.topic == "bridge/cmd/vibrate")
            #expect(command.payloadString == "go")

            // Re-published: a fresh subscriber sees the retained state, and only the live entry.
            let late = try await broker.connectedClient("late")
            try await broker.subscribe(late, to: "bridge/devices/#")
            try late.publish(MQTTMessage(topic: "bridge/devices/zz/sentinel", string: "end", qos: .atLeastOnce))
            let seen = try await messages(from: late) { $0.topic.hasSuffix("sentinel") }
            #expect(seen.map(\.topic) == ["bridge/devices/belt/state", "bridge/devices/zz/sentinel"])
            #expect(seen.first?.retain == true)
            #expect(seen.first?.payloadString == "connected")

            let sub = try ManagedProcess.launch(
                "mosquitto_sub",
                arguments: [
                    "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "bridge/devices/belt/state", "-C", "1", "-F",
                    "%r %p",
                ])
            #expect(try await sub.waitForExit() == .exited(0))
            #expect(sub.lines.map(\.text) == ["1 connected"])

            await late.stop()
            await bridge.stop()
        }
    }

    @Test func firstConnectionRetriesWithBackoffUntilTheBrokerAppears() async throws {
        let port = try FreePort.allocate()
        var configuration = try MQTTConfiguration(url: "mqtt://127.0.0.1:\(port)", clientID: "early")
        configuration.backoff = MQTTBackoff(initial: .milliseconds(50), maximum: .milliseconds(400), jitter: 0.2)
        let client = try MQTTClient(configuration: configuration, logger: testLogger)
        client.start()

        var delays: [Int: Duration] = [:]
        while delays.count < 3 {
            if case .reconnecting(let attempt, let delay) = try await nextEvent(from: client, where: { _ in true }) {
                delays[attempt] = delay
            }
        }
        #expect(Set(delays.keys) == [1, 2, 3])
        #expect(delays[1]! <= .milliseconds(50) && delays[1]! >= .milliseconds(40))
        #expect(delays[2]! <= .milliseconds(100) && delays[2]! >= .milliseconds(80))
        #expect(delays[3]! <= .milliseconds(200) && delays[3]! >= .milliseconds(160))

        let broker = try await MosquittoBroker.start(port: port)
        try await client.connected(timeout: .seconds(5))
        #expect(client.isConnected)
        #expect(client.statistics.reconnects == 0)
        await client.stop()
        await broker.stop()
    }

    @Test func connectedTimesOutWhenNothingListens() async throws {
        let port = try FreePort.allocate()
        let client = try MQTTClient(
            configuration: MQTTConfiguration(url: "mqtt://127.0.0.1:\(port)", clientID: "nobody"), logger: testLogger)
        client.start()
        await #expect {
            try await client.connected(timeout: .milliseconds(300))
        } throws: { error in
            guard case MQTTError.timeout(let lastError?) = error else { return false }
            return lastError.contains("refused")
        }
        await client.stop()
    }

    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func brokerRefusesBadCredentials(version: MQTTProtocolVersion) async throws {
        var options = MosquittoBroker.Options()
        options.allowAnonymous = false
        options.users = ["bridge": "secret"]
        try await withBroker(options) { broker in
            for (user, password) in [(nil, nil), ("bridge", "wrong"), ("intruder", "secret")] as [(String?, String?)] {
                let client = try broker.makeClient("refused", version: version) { configuration in
                    configuration.username = user
                    configuration.password = password
                }
                client.start()
                await #expect {
                    try await client.connected(timeout: .seconds(5))
                } throws: { error in
                    guard case MQTTError.connectionRefused(let reason) = error else { return false }
                    return reason.localizedCaseInsensitiveContains("not authori")
                        || reason.localizedCaseInsensitiveContains("bad user")
                }
                await client.stop()
            }
            let client = try await broker.connectedClient("accepted", version: version) { configuration in
                configuration.username = "bridge"
                configuration.password = "secret"
            }
            #expect(client.isConnected)
            await client.stop()
        }
    }

    /// A broker that says it cannot take clients yet ("server unavailable", as a RabbitMQ node says while its
    /// MQTT plugin starts) is retried, not given up on: the wait for the connection goes on through the
    /// refusals and ends when a broker on that port accepts. Before, the first such answer ended it.
    @Test(arguments: [MQTTProtocolVersion.v5, .v311])
    func serverUnavailableIsRetriedUntilTheBrokerAccepts(version: MQTTProtocolVersion) async throws {
        let unavailable = try UnavailableBroker()
        var configuration = try MQTTConfiguration(url: "mqtt://127.0.0.1:\(unavailable.port)", clientID: "patient")
        configuration.protocolVersion = version
        configuration.backoff = MQTTBackoff(initial: .milliseconds(50), maximum: .milliseconds(200), jitter: 0.2)
        let client = try MQTTClient(configuration: configuration, logger: testLogger)
        client.start()
        let waiting = Task { try await client.connected(timeout: .seconds(30)) }
        try await unavailable.waitForRefusals(3)
        #expect(!client.isConnected)
        unavailable.close()
        let broker = try await MosquittoBroker.start(port: unavailable.port)
        try await withCleanUp({
            await client.stop()
            await broker.stop()
        }) {
            try await waiting.value
            #expect(client.isConnected)
            #expect(unavailable.refusedCount >= 3)
        }
    }

    /// While the broker only refuses for now, the wait times out naming the broker's answer.
    @Test func aTimeoutWhileTheBrokerRefusesForNowNamesItsAnswer() async throws {
        let unavailable = try UnavailableBroker()
        var configuration = try MQTTConfiguration(url: "mqtt://127.0.0.1:\(unavailable.port)", clientID: "patient")
        configuration.protocolVersion = .v311
        configuration.backoff = MQTTBackoff(initial: .milliseconds(50), maximum: .milliseconds(100), jitter: 0.2)
        let client = try MQTTClient(configuration: configuration, logger: testLogger)
        client.start()
        try await unavailable.waitForRefusals(2)
        await #expect {
            try await client.connected(timeout: .milliseconds(300))
        } throws: { error in
            guard case MQTTError.timeout(let last) = error else { return false }
            return last?.localizedCaseInsensitiveContains("unavailable") == true
        }
        await client.stop()
        unavailable.close()
    }

    @Test func tlsAgainstAPlainBrokerFailsClearly() async throws {
        try await withBroker { broker in
            let client = try broker.makeClient("tls") { $0.tls = MQTTTLSConfiguration() }
            client.start()
            await #expect {
                try await client.connected(timeout: .seconds(5))
            } throws: { error in
                if case MQTTError.tls = error { true } else { false }
            }
            await client.stop()
        }
    }

    /// Over TLS the client keeps libmosquitto's threaded mode (one thread reads and writes the OpenSSL
    /// connection): a round trip, and a burst that the client's own thread writes, against a TLS listener.
    @Test func aTLSBrokerIsReachedAndABurstGetsThrough() async throws {
        try await withTLSBroker { broker, tls in
            let subscriber = try await broker.connectedClient("tls-sub") { $0.tls = tls }
            let publisher = try await broker.connectedClient("tls-pub") { $0.tls = tls }
            try await broker.subscribe(subscriber, to: "tls/end")
            for index in 0..<2_000 {
                try publisher.publish(MQTTMessage(topic: "tls/burst", string: "\(index)", qos: .atMostOnce))
            }
            try publisher.publish(MQTTMessage(topic: "tls/end", string: "done", qos: .atLeastOnce))
            #expect(try await nextMessage(from: subscriber).payloadString == "done")
            #expect(publisher.statistics.messagesPublished == 2_001)
            await publisher.stop()
            await subscriber.stop()
        }
    }

    @Test func missingTLSFilesAreRejectedAtCreation() throws {
        var configuration = MQTTConfiguration(host: "127.0.0.1", clientID: "x")
        configuration.tls = MQTTTLSConfiguration(caFile: "/nonexistent/ca.pem")
        #expect {
            _ = try MQTTClient(configuration: configuration, logger: testLogger)
        } throws: { error in
            guard case MQTTError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains("/nonexistent/ca.pem")
        }
    }

    @Test func publishingWhileDisconnected() async throws {
        try await withBroker { broker in
            let client = try broker.makeClient("offline-first")
            // Non-retained QoS 0 cannot be delivered later: say so.
            #expect(throws: MQTTError.notConnected) {
                try client.publish(MQTTMessage(topic: "bridge/event", string: "lost"))
            }
            // Retained state is kept and sent once connected.
            try client.publish(MQTTMessage(topic: "bridge/state", string: "ready", qos: .atLeastOnce, retain: true))
            client.start()
            try await client.connected()
            try await broker.log.waitForLine(containing: "Received PUBLISH from offline-first (d0, q1, r1")

            let late = try await broker.connectedClient("late")
            try late.subscribe("bridge/state")
            let state = try await nextMessage(from: late)
            #expect(state.payloadString == "ready")
            #expect(state.retain)
            await late.stop()
            await client.stop()
        }
    }

    @Test func stopBeforeStartEndsEverything() async throws {
        let client = try MQTTClient(
            configuration: MQTTConfiguration(host: "127.0.0.1", clientID: "idle"), logger: testLogger)
        await client.stop()
        await client.stop()
        client.start()  // after stop: ignored
        for await _ in client.events {}
        await #expect(throws: MQTTError.stopped) { try await client.connected(timeout: .seconds(1)) }
    }
}
