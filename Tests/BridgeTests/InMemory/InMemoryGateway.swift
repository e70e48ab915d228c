import DaemonLogging
import Logging
import MQTT
import ServiceLifecycle
import TestSupport

@_spi(Bench) @testable import Bridge

/// A whole gateway in memory, as SwiftNIO's `EmbeddedChannel` stands in for a socket: the real `Bridge` and
/// its services with the health reporter, on an `InMemoryWorld`'s broker and an `InMemoryCentral` of its own,
/// with a log kept in memory. Nothing is started outside the test process.
struct InMemoryGateway {
    let bridge: Bridge
    let world: InMemoryWorld
    let central: InMemoryCentral
    let log: RecordingLog
    private let client: InMemoryBrokerClient
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    var broker: InMemoryBroker { world.broker }
    /// The filters the gateway is subscribed to now.
    var subscriptions: [String] { client.filters }
    var probe: RecordingSink { world.probe }

    /// Starts gateway `name` on `adapters` in `world`, and returns once it runs (its status `online`, BlueZ followed).
    /// `logTopic` is the log topic's level (`log_level_mqtt`); nil, as for most tests, publishes no log line.
    static func start(
        _ name: String = "test", in world: InMemoryWorld, adapters: [String] = ["hci0"],
        logTopic: Logger.Level? = nil, configure: (inout BridgeConfiguration) -> Void = { _ in },
        options: (any GatewayOptionsHandler)? = nil
    ) async throws -> InMemoryGateway {
        let central = InMemoryCentral(adapters: adapters)
        var configuration = BridgeConfiguration(
            mqtt: MQTTConfiguration(host: "in-memory"), adapters: adapters, gateway: name)
        // Every device the tests make is one of the gateway's; AdoptionTests configure adoption themselves.
        configuration.autoConnect = .all
        // Tests restart a gateway just started; GatewayRetainedRequestTests configure the hold-off they test.
        configuration.restartHoldOff = .zero
        // Logged in, as a gateway on a broker with users (the in-memory broker takes any password): its privileged
        // requests are taken, with no warning. PrivilegedRequestTests configure the cases they test.
        configuration.mqtt.password = "in-memory"
        configure(&configuration)
        // As the daemon makes it (Gatt2MQTT.swift): the lines the gateway logs reach its log topic through a tap.
        let log = RecordingLog(tap: LogTap(level: logTopic))
        var client: InMemoryBrokerClient?
        let bridge = try Bridge(
            configuration: configuration, logger: log.logger(), notifier: SystemdNotifier(environment: [:]),
            broker: { settings in
                let made = world.broker.client(will: settings.will, maximumPacketSize: settings.maximumPacketSize)
                client = made
                return made
            },
            central: central, options: options)
        let logTopic = bridge.logTopic
        log.tap?.attach { logTopic.offer(level: $0.level, label: $0.label, message: $0.message, metadata: $0.metadata) }
        // The health reporter beside the bridge's services, as the daemon runs it (Gatt2MQTT.swift): last, so the
        // first to stop. It says nothing before its first interval (60 s unless configured).
        let services =
            bridge.services + [
                .init(service: bridge.healthReporter, successTerminationBehavior: .gracefullyShutdownGroup)
            ]
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [],
                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }))
        let running = Task { try await group.run() }
        await log.waitForLine(containing: "bridge running")
        return InMemoryGateway(
            bridge: bridge, world: world, central: central, log: log, client: client!, group: group, running: running)
    }

    /// Runs `body` with a running gateway named `test` in a world of its own, and stops both afterwards, as
    /// SIGTERM does, whatever `body` did.
    static func with<Result>(
        adapters: [String] = ["hci0"], logTopic: Logger.Level? = nil,
        configure: (inout BridgeConfiguration) -> Void = { _ in }, options: (any GatewayOptionsHandler)? = nil,
        _ body: (InMemoryGateway) async throws -> Result
    ) async throws -> Result {
        try await InMemoryWorld.with { world in
            let gateway = try await start(
                in: world, adapters: adapters, logTopic: logTopic, configure: configure, options: options)
            return try await withCleanUp({ await gateway.stop() }) { try await body(gateway) }
        }
    }

    /// Stops the gateway as SIGTERM does: devices disconnected, `offline` said, the session closed.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await running.result
    }

    /// How the gateway's run ended, once it has ended by itself (or been stopped).
    var ended: Result<Void, any Error> { get async { await running.result } }

    /// Ends the gateway as the death of its host does: its broker connection is cut and nothing it does afterwards
    /// reaches the broker; its links go down with it; then the broker publishes its will. The links go first: a
    /// device held by a dead host is not connectable by another until that link has dropped, whereas here the
    /// gateways share one link object, and a dying gateway's late disconnect would end the link another gateway had
    /// taken over meanwhile.
    func kill() async {
        client.cut(publishingWill: false)
        running.cancel()
        _ = await running.result
        client.publishWill()
    }

    /// Publishes `payload` on `topic` as another client on the broker would.
    func publish(_ topic: String, _ payload: String, retain: Bool = false, responseTopic: String? = nil) throws {
        try world.publish(topic, payload, retain: retain, responseTopic: responseTopic)
    }

    /// As after a reconnect to the broker: the gateway's subscriptions, restored, bring every retained message they
    /// match again (`MQTTClient` subscribes again after every reconnect).
    func resubscribe() { client.resubscribe() }

    func publish(_ message: MQTTMessage) throws { try world.publish(message) }

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
