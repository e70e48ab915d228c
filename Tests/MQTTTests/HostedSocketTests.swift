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
            try await log.waitForLine(containing: "Received PINGREQ from hosted", after: log.lineCount, timeout: .seconds(12))
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
            try await waitUntil(timeout: .seconds(10)) { client.state.withLock { $0.riding == nil } }
            try await broker.mosquittoPub(["-t", "hosted/cmd/still", "-m", "here", "-q", "1"])
            #expect(try await nextMessage(from: client) { $0.topic == "hosted/cmd/still" }.payloadString == "here")
            #expect(client.statistics.reconnects == 0)
        }
    }

    /// A client named `hosted`, connected, subscribed to `hosted/cmd/#`, and riding on a bus connection's thread.
    private func withRidingClient(
        _ configure: (inout MQTTConfiguration) -> Void = { _ in },
        _ body: (MosquittoBroker, DBusConnection, MQTTClient) async throws -> Void
    ) async throws {
        try await PrivateBus.with { bus in
            try await withBroker { broker in
                let host = try DBusConnection(address: bus.address)
                let client = try broker.makeClient("hosted", configure)
                client.start(host: host)
                try await client.connected(timeout: .seconds(5))
                try await broker.subscribe(client, to: "hosted/cmd/#")
                try await waitUntil(timeout: .seconds(5)) { client.state.withLock { $0.riding != nil } }
                try await body(broker, host, client)
                await client.stop()
                host.close()
            }
        }
    }
}
