import Foundation
import TestSupport
import Testing

/// `online` is a promise: a client that sends a request the moment it sees the gateway's status must find the
/// gateway subscribed. Read from the broker's own log (mosquitto logs every SUBSCRIBE and PUBLISH it handles, in
/// the order it handles them), on the first connection and after the broker comes back without its memory.
@Suite(.serialized)
struct OnlineMeansListeningTests {
    @Test func theGatewaySubscribesBeforeItSaysOnlineOnEveryConnection() async throws {
        try await TestWorld.with { world in
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("gatt2mqtt/test/status") { $0.payloadString == "online" }
            try await expectSubscribedBeforeOnline(world.broker)
            // Answered at once: sent on seeing `online`.
            try await expectAnswered(recorder)

            // A broker restarted without persistence knows nothing of the gateway: it restores its session.
            let mark = recorder.mark
            try await world.broker.restart()
            try await recorder.client.connected(timeout: .seconds(30))
            try await recorder.waitFor("gatt2mqtt/test/status", after: mark) { $0.payloadString == "online" }
            try await expectSubscribedBeforeOnline(world.broker)
            try await expectAnswered(recorder)
            await recorder.stop()
        }
    }

    /// In the current broker's log, the gateway's SUBSCRIBE to its request filter comes before its `online`. The log
    /// reaches the test through a pipe, behind the message itself: the `online` line is waited for before the order
    /// is read.
    private func expectSubscribedBeforeOnline(_ broker: MosquittoBroker) async throws {
        let process = try #require(broker.process)
        try await process.waitForLine { $0.contains("Received PUBLISH") && $0.contains("'gatt2mqtt/test/status'") }
        let lines = process.lines.map(\.text)
        let subscribed = lines.firstIndex { $0.hasSuffix(" gatt2mqtt/test/request/+") }
        let online = lines.firstIndex { $0.contains("Received PUBLISH") && $0.contains("'gatt2mqtt/test/status'") }
        let said = try #require(
            online, "the broker's log has the gateway's status:\n\(lines.suffix(40).joined(separator: "\n"))")
        let listening = try #require(
            subscribed, "the broker's log has the request subscription:\n\(lines.joined(separator: "\n"))")
        #expect(listening < said, "subscribed at line \(listening), online at line \(said)")
    }

    private func expectAnswered(_ recorder: TopicRecorder) async throws {
        let mark = recorder.mark
        try recorder.publish("gatt2mqtt/test/request/devices", "{}")
        let answer = try await recorder.waitFor("gatt2mqtt/test/response/devices", after: mark)
        #expect(answer.payloadString?.contains(#""ok":true"#) == true)
    }
}
