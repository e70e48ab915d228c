import Foundation
import Locks
import MQTT

/// The fleet benchmark's eyes on one broker: one MQTT client that records, with its arrival time, every
/// claim, every `owner`, every belt heading and every belt reply. Commands carry a `transaction`, which
/// the reply echoes, so replies are counted the same way with MQTT 5 and 3.1.1 (RabbitMQ has no
/// response topics).
final class FleetObserver: Sendable {
    struct Event: Sendable {
        var topic: String
        var payload: String
        var at: ContinuousClock.Instant
    }

    private let client: MQTTClient
    private let events = Mutex<[Event]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(url: String, protocolVersion: MQTTProtocolVersion) throws {
        var configuration = try MQTTConfiguration(
            url: url, clientID: "fleet-bench-observer-\(UInt32.random(in: 0...UInt32.max))")
        configuration.protocolVersion = protocolVersion
        client = try MQTTClient(configuration: configuration)
    }

    func start() async throws {
        client.start()
        try await client.connected()
        for filter in ["gatt2mqtt/+/claim/+/+", "gatt2mqtt/+/status", "belt/+/owner", "belt/+/heading", "belt/+/reply"]
        {
            try client.subscribe(filter, qos: .atLeastOnce)
        }
        let listening = Task { [self] in
            for await message in client.messages {
                let event = Event(
                    topic: message.topic, payload: String(decoding: message.payload, as: UTF8.self), at: .now)
                events.withLock { $0.append(event) }
            }
        }
        task.withLock { $0 = listening }
    }

    func stop() async {
        task.withLock { $0?.cancel() }
        await client.stop()
    }

    var all: [Event] { events.withLock { $0 } }

    func publish(_ topic: String, _ payload: String) throws {
        try client.publish(MQTTMessage(topic: topic, string: payload, qos: .atLeastOnce))
    }

    /// Waits until `predicate` holds for some event after `since`, polling every 50 ms; nil after `timeout`.
    func wait(
        since: ContinuousClock.Instant, timeout: Duration, _ predicate: (Event) -> Bool
    ) async -> Event? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let event = all.first(where: { $0.at >= since && predicate($0) }) { return event }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
