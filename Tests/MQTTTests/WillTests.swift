import Foundation
import TestSupport
import Testing

@testable import MQTT

@Suite(.serialized) struct WillTests {
    /// The will of a client nobody here wrote: mosquitto_sub, killed so it cannot say goodbye.
    @Test func brokerPublishesWillOfKilledMosquittoSub() async throws {
        try await withBroker { broker in
            let observer = try await broker.connectedClient("observer")
            try await broker.subscribe(observer, to: "devices/+/availability")

            let log = try broker.log
            let mark = log.lineCount
            let dying = try ManagedProcess.launch(
                "mosquitto_sub",
                arguments: [
                    "-h", "127.0.0.1", "-p", "\(broker.port)", "-i", "dying", "-t", "unused",
                    "--will-topic", "devices/dying/availability", "--will-payload", "offline", "--will-qos", "1",
                ])
            try await log.waitForLine(containing: "Sending CONNACK to dying", after: mark)
            dying.send(SIGKILL)
            #expect(try await dying.waitForExit() == .signalled(SIGKILL))

            let will = try await nextMessage(from: observer)
            #expect(will.topic == "devices/dying/availability")
            #expect(will.payloadString == "offline")
            await observer.stop()
        }
    }

    /// Our own will, with retain, QoS and MQTT 5 properties, when our connection breaks.
    @Test func willOfOurClientIsPublishedWhenItsConnectionBreaks() async throws {
        try await withBroker { broker in
            let observer = try await broker.connectedClient("observer")
            try await broker.subscribe(observer, to: "bridge/status")

            let bridge = try await broker.connectedClient("bridge") { configuration in
                configuration.will = MQTTMessage(
                    topic: "bridge/status", string: "offline", qos: .atLeastOnce, retain: true,
                    userProperties: [MQTTUserProperty("reason", "crash")])
            }
            #expect(
                try await nextEvent(from: bridge) { $0 == .connected(sessionPresent: false) }
                    == .connected(sessionPresent: false))
            bridge.breakConnectionForTesting()

            let will = try await nextMessage(from: observer)
            #expect(will.topic == "bridge/status")
            #expect(will.payloadString == "offline")
            #expect(will.qos == .atLeastOnce)
            #expect(will.userProperties == [MQTTUserProperty("reason", "crash")])

            // Retained: a client arriving later still learns the bridge is gone.
            let late = try ManagedProcess.launch(
                "mosquitto_sub",
                arguments: ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "bridge/status", "-C", "1", "-F", "%r %p"])
            #expect(try await late.waitForExit() == .exited(0))
            #expect(late.lines.map(\.text) == ["1 offline"])

            // And the bridge itself comes back by itself.
            _ = try await nextEvent(from: bridge) { if case .reconnecting = $0 { true } else { false } }
            _ = try await nextEvent(from: bridge) { if case .connected = $0 { true } else { false } }
            #expect(bridge.statistics.reconnects == 1)
            await bridge.stop()
            await observer.stop()
        }
    }

    @Test func cleanStopPublishesNoWill() async throws {
        try await withBroker { broker in
            let observer = try await broker.connectedClient("observer")
            try await broker.subscribe(observer, to: "bridge/status")
            try await broker.subscribe(observer, to: "sentinel")

            let bridge = try await broker.connectedClient("bridge") { configuration in
                configuration.will = MQTTMessage(topic: "bridge/status", string: "offline", qos: .atLeastOnce)
            }
            let log = try broker.log
            let mark = log.lineCount
            await bridge.stop()
            await bridge.stop()  // idempotent
            try await log.waitForLine(containing: "Received DISCONNECT from bridge", after: mark)
            try await log.waitForLine(containing: "Client bridge disconnected", after: mark)

            // The broker handles a will when the client goes; anything published after that is
            // delivered after it. So if the sentinel arrives first, no will was sent.
            try observer.publish(MQTTMessage(topic: "sentinel", string: "done", qos: .atLeastOnce))
            let seen = try await messages(from: observer) { $0.topic == "sentinel" }
            #expect(seen.map(\.topic) == ["sentinel"])
            #expect(!log.outputText.contains("'bridge/status'"))

            // stop() also ended the bridge's streams and fails later waits.
            for await _ in bridge.messages {}
            await #expect(throws: MQTTError.stopped) { try await bridge.connected(timeout: .seconds(1)) }
            await observer.stop()
        }
    }
}
