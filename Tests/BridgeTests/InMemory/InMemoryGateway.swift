import Logging
import MQTT
import ServiceLifecycle

@testable import Bridge

/// A whole gateway in memory, as SwiftNIO's `EmbeddedChannel` stands in for a socket: the real `Bridge` and
/// its services, on an `InMemoryBroker` and an `InMemoryCentral`, with a probe client that records every
/// message on the broker and a log kept in memory. Nothing is started outside the test process.
struct InMemoryGateway {
    let bridge: Bridge
    let broker: InMemoryBroker
    let central: InMemoryCentral
    /// Every message on the broker, in order, from before the gateway started.
    let probe: RecordingSink
    let log: RecordingLog
    private let prober: InMemoryBrokerClient

    /// Runs `body` with a running gateway named `test` (its status `online`, BlueZ followed), and stops it
    /// afterwards, as SIGTERM does, whatever `body` did.
    static func with<Result>(
        adapters: [String] = ["hci0"], configure: (inout BridgeConfiguration) -> Void = { _ in },
        _ body: (InMemoryGateway) async throws -> Result
    ) async throws -> Result {
        let broker = InMemoryBroker()
        let central = InMemoryCentral(adapters: adapters)
        let (probe, log) = (RecordingSink(), RecordingLog())
        let prober = broker.client()
        prober.start(host: nil)
        try prober.subscribe("#", qos: .atLeastOnce)
        let recording = Task { for await message in prober.messages { try? probe.publish(message) } }

        var configuration = BridgeConfiguration(mqtt: MQTTConfiguration(host: "in-memory"), adapters: adapters, gateway: "test")
        configure(&configuration)
        let bridge = try Bridge(
            configuration: configuration, logger: log.logger(), notifier: SystemdNotifier(environment: [:]),
            broker: { broker.client(will: $0.will) }, central: central)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: bridge.services, gracefulShutdownSignals: [], logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await group.run() }
        let gateway = InMemoryGateway(bridge: bridge, broker: broker, central: central, probe: probe, log: log, prober: prober)
        await log.waitForLine(containing: "bridge running")

        let result: Result
        do {
            result = try await body(gateway)
        } catch {
            await gateway.stop(group, running, recording)
            throw error
        }
        await gateway.stop(group, running, recording)
        return result
    }

    private func stop(_ group: ServiceGroup, _ running: Task<Void, any Error>, _ recording: Task<Void, Never>) async {
        await group.triggerGracefulShutdown()
        _ = await running.result
        await prober.stop()
        await recording.value
    }

    /// Publishes `payload` on `topic` as another client on the broker would.
    func publish(_ topic: String, _ payload: String, retain: Bool = false, responseTopic: String? = nil) throws {
        try prober.publish(MQTTMessage(topic: topic, string: payload, qos: .atLeastOnce, retain: retain, responseTopic: responseTopic))
    }

    func publish(_ message: MQTTMessage) throws { try prober.publish(message) }

    /// `link`'s device appears to BlueZ; returns once its session says `connected`.
    @discardableResult
    func connect(_ link: InMemoryLink, family: String, on adapter: String? = nil, rssi: Int16? = -60) async -> String {
        let id = DeviceID.from(address: link.device.address)
        let mark = probe.mark
        central.add(link, on: adapter, rssi: rssi)
        await probe.next(on: "\(family)/\(id)/connection", after: mark) { $0 == "connected" }
        return id
    }
}
