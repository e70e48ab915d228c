import MQTT
import TestSupport

/// A broker in memory and a probe client on it that records every message from the start: where one or
/// several `InMemoryGateway`s run, and where a test publishes as another client would.
final class InMemoryWorld: Sendable {
    let broker = InMemoryBroker()
    /// Every message on the broker, in order.
    let probe = RecordingSink()
    private let prober: InMemoryBrokerClient
    private let recording: Task<Void, Never>

    init() throws {
        prober = broker.client()
        prober.start(host: nil)
        try prober.subscribe("#", qos: .atLeastOnce)
        let (prober, probe) = (prober, probe)
        recording = Task { for await message in prober.messages { try? probe.publish(message) } }
    }

    /// Runs `body` with a fresh world, and stops its probe afterwards whatever `body` did.
    static func with<Result>(_ body: (InMemoryWorld) async throws -> Result) async throws -> Result {
        let world = try InMemoryWorld()
        return try await withCleanUp({ await world.stop() }) { try await body(world) }
    }

    func stop() async {
        await prober.stop()
        await recording.value
    }

    /// Publishes `payload` on `topic` as another client on the broker would.
    func publish(_ topic: String, _ payload: String, retain: Bool = false, responseTopic: String? = nil) throws {
        try prober.publish(
            MQTTMessage(topic: topic, string: payload, qos: .atLeastOnce, retain: retain, responseTopic: responseTopic))
    }

    func publish(_ message: MQTTMessage) throws { try prober.publish(message) }
}
