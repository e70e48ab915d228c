import DBus
import Foundation
import TestSupport
import Testing

@testable import MQTT

/// The broker's socket polled by a D-Bus connection's thread (`start(host:)`), as the gateway runs it:
/// a real private bus as the host, a real mosquitto as the broker.
@Suite(.serialized) struct HostedSocketTests {
    @Test func messagesFlowBothWaysAndTheKeepAliveIsSentFromTheHost() async throws {
        try await withRidingClient({ $0.keepAlive = 5 }) { broker, _, client in
            try await broker.mosquittoPub(["-t", "hosted/cmd/go", "-m", "now", "-q", "1"])
            #expect(try await nextMessage(from: client).payloadString == "now")

            let listener = try await broker.connectedClient("listener")
            try await broker.subscribe(listener, to: "hosted/state")
            try client.publish(MQTTMessage(topic: "hosted/state", string: "up", qos: .atLeastOnce))
            #expect(try await nextMessage(from: listener).payloadString == "up")
            await listener.stop()

            // Nothing else goes out: only the host's ticks keep the connection alive.
            let log = try broker.log
            try await log.waitForLine(
                containing: "Received PINGREQ from hosted", after: log.lineCount, timeout: .seconds(12))
            try await log.waitForLine(containing: "Sending PINGRESP to hosted", timeout: .seconds(2))
            #expect(client.isConnected)
            #expect(client.statistics.reconnects == 0)
        }
    }

    @Test func aBrokerRestartReconnectsAndTheSocketRidesAgain() async throws {
        try await withRidingClient { broker, _, client in
            try await broker.restart()
            _ = try await nextEvent(from: client) { if case .connected = $0 { true } else { false } }
            try await broker.log.waitForLine(containing: "Sending SUBACK to hosted")
            try await waitUntil(timeout: .seconds(5)) { client.state.withLock { $0.riding != nil } }
            try await broker.mosquittoPub(["-t", "hosted/cmd/again", "-m", "after", "-q", "1"])
            #expect(try await nextMessage(from: client) { $0.topic == "hosted/cmd/again" }.payloadString == "after")
            #expect(client.statistics.reconnects == 1)
        }
    }

    @Test func aHostThatStopsPollingGivesTheSocketBack() async throws {
        try await withRidingClient { broker, host, client in
            host.close()
            // Taken back a silence after the host's last turn, which came at most a tick before the close.
            try await waitUntil(timeout: MQTTClient.hostSilence * 2) { client.state.withLock { $0.riding == nil } }
            try await broker.mosquittoPub(["-t", "hosted/cmd/still", "-m", "here", "-q", "1"])
            #expect(try await nextMessage(from: client) { $0.topic == "hosted/cmd/still" }.payloadString == "here")
            #expect(client.statistics.reconnects == 0)
        }
    }

    /// The client's thread looks again when the host's allowed silence would end, never a whole silence later.
    @Test func theClientLooksWhenTheAllowedSilenceEnds() {
        #expect(MQTTClient.millisecondsLeft(of: .seconds(5), after: .zero) == 5_001)
        #expect(MQTTClient.millisecondsLeft(of: .seconds(5), after: .milliseconds(4_200)) == 801)
        #expect(MQTTClient.millisecondsLeft(of: .seconds(5), after: .seconds(5)) == 1)
        #expect(MQTTClient.millisecondsLeft(of: .seconds(5), after: .seconds(7)) == 1)
        #expect(MQTTClient.millisecondsLeft(of: .seconds(5), after: .milliseconds(-300)) == 5_301)
    }

    /// Over TLS too the host thread serves the socket (every read and write of the OpenSSL connection): messages
    /// both ways, a burst whose packets only queue (threaded mode) and are written by the host, and the keep-alive.
    @Test func overTLSTheHostServesTheSocketToo() async throws {
        try await withRidingClient(tls: true, { $0.keepAlive = 5 }) { broker, tls, client in
            try await broker.mosquittoPub([
                "-t", "hosted/cmd/go", "-m", "secure", "-q", "1", "--cafile", try #require(tls.caFile),
            ])
            #expect(try await nextMessage(from: client).payloadString == "secure")

            let listener = try await broker.connectedClient("listener") { $0.tls = tls }
            try await broker.subscribe(listener, to: "hosted/#")
            for index in 0..<2_000 {
                try client.publish(MQTTMessage(topic: "hosted/burst", string: "\(index)", qos: .atMostOnce))
            }
            try client.publish(MQTTMessage(topic: "hosted/end", string: "done", qos: .atLeastOnce))
            #expect(try await nextMessage(from: listener) { $0.topic == "hosted/end" }.payloadString == "done")
            #expect(client.state.withLock { $0.riding != nil }, "the host served the socket throughout")
            await listener.stop()

            let log = try broker.log
            try await log.waitForLine(
                containing: "Received PINGREQ from hosted", after: log.lineCount, timeout: .seconds(12))
            #expect(client.isConnected && client.statistics.reconnects == 0)
        }
    }

    /// A client named `hosted`, connected (over TLS with `tls`), subscribed to `hosted/cmd/#`, and riding on a bus
    /// connection's thread.
    private func withRidingClient(
        _ configure: (inout MQTTConfiguration) -> Void = { _ in },
        _ body: (MosquittoBroker, DBusConnection, MQTTClient) async throws -> Void
    ) async throws {
        try await PrivateBus.with { bus in
            try await withBroker { broker in
                let host = try DBusConnection(address: bus.address)
                try await ride(broker, host: host, configure) { client in try await body(broker, host, client) }
                host.close()
            }
        }
    }

    private func withRidingClient(
        tls: Bool, _ configure: @escaping (inout MQTTConfiguration) -> Void,
        _ body: (MosquittoBroker, MQTTTLSConfiguration, MQTTClient) async throws -> Void
    ) async throws {
        try await PrivateBus.with { bus in
            try await withTLSBroker { broker, settings in
                let host = try DBusConnection(address: bus.address)
                try await ride(
                    broker, host: host,
                    {
                        configure(&$0)
                        $0.tls = settings
                    }
                ) { client in try await body(broker, settings, client) }
                host.close()
            }
        }
    }

    private func ride(
        _ broker: MosquittoBroker, host: DBusConnection, _ configure: (inout MQTTConfiguration) -> Void,
        _ body: (MQTTClient) async throws -> Void
    ) async throws {
        let client = try broker.makeClient("hosted", configure)
        client.start(host: host)
        try await client.connected(timeout: .seconds(5))
        try await broker.subscribe(client, to: "hosted/cmd/#")
        try await waitUntil(timeout: .seconds(5)) { client.state.withLock { $0.riding != nil } }
        try await withCleanUp({ await client.stop() }) { try await body(client) }
    }
}
