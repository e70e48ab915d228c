import Foundation
import MQTT
import Synchronization

/// The fleet benchmark's eyes: one MQTT client that records, with its arrival time, every claim, every
/// `owner` and every belt heading, and the replies to the benchmark's commands.
final class FleetObserver: Sendable {
    struct Event: Sendable {
        var topic: String
        var payload: String
        var at: ContinuousClock.Instant
    }

    private let client: MQTTClient
    private let events = Mutex<[Event]>([])
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(url: String) throws {
        client = try MQTTClient(configuration: try MQTTConfiguration(url: url, clientID: "fleet-bench-observer"))
    }

    func start() async throws {
        client.start()
        try await client.connected()
        for filter in ["gatt2mqtt/+/claim/+/+", "belt/+/owner", "belt/+/heading", "bench/replies/#"] {
            try client.subscribe(filter, qos: .atLeastOnce)
        }
        let listening = Task { [self] in
            for await message in client.messages {
                let event = Event(topic: message.topic, payload: String(decoding: message.payload, as: UTF8.self), at: .now)
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

    func publish(_ topic: String, _ payload: String, responseTopic: String) throws {
        try client.publish(MQTTMessage(topic: topic, string: payload, qos: .atLeastOnce, responseTopic: responseTopic))
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
