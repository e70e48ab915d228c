import Foundation
import Locks
import MQTT
import TestSupport

/// Where the fleet benchmark's gateways and its observer meet: one mosquitto broker, two mosquitto
/// brokers joined by a bridge, or a three-node RabbitMQ cluster. Gateway `i` uses `brokers[i]`; the
/// observer listens on `observed`, a broker that never dies. The last gateway's broker is the one that
/// `killLastGatewaysBroker` takes away (none for the single broker: its death is everyone's).
struct FleetTopology {
    var title: String
    var key: String
    var summary: String
    var brokers: [String]
    var observed: String
    var protocolVersion: MQTTProtocolVersion
    var killLastGatewaysBroker: (@Sendable () async -> Void)?
    var restoreLastGatewaysBroker: (@Sendable () async throws -> Void)?
    var stop: @Sendable () async -> Void
    /// The gateways run with no fleet flag at all and the default refresh (`fleet.enabled: auto`, R = 10 s).
    var defaultSettings = false

    /// Every gateway on the world's broker.
    static func oneBroker(_ world: TestWorld, gateways: Int) -> FleetTopology {
        FleetTopology(
            title: "One mosquitto broker", key: "one_broker",
            summary:
                "Every gateway and the observer on one broker (MQTT 5). Noise, then a +20 dB step, then an owner's SIGKILL and its restart.",
            brokers: Array(repeating: world.broker.url, count: gateways),
            observed: world.broker.url, protocolVersion: .v5, stop: {})
    }

    /// Every gateway on the world's broker, as a user starts them: no fleet flag, the default refresh.
    static func defaults(_ world: TestWorld, gateways: Int) -> FleetTopology {
        FleetTopology(
            title: "Default settings, one mosquitto broker", key: "defaults",
            summary:
                "The same gateways with no fleet flag and the default refresh (`fleet.enabled: auto`, R = 10 s, lease 30 s), "
                + "started at once on one broker (MQTT 5): the first one alone takes every belt, the others find them owned; "
                + "then an owner's SIGKILL and its restart.",
            brokers: Array(repeating: world.broker.url, count: gateways), observed: world.broker.url,
            protocolVersion: .v5, stop: {},
            defaultSettings: true)
    }

    /// The world's broker, and a second one bridged to it (`topic # both 1`) for the last gateway.
    static func bridged(_ world: TestWorld, gateways: Int) async throws -> FleetTopology {
        var options = MosquittoBroker.Options()
        options.extraConfiguration = [
            "connection fleet-bridge", "address 127.0.0.1:\(world.broker.port)", "topic # both 1", "restart_timeout 1",
        ]
        let far = try await MosquittoBroker.start(options: options)
        try await waitForBridge(near: world.broker.url, far: far.url)
        return FleetTopology(
            title: "Two mosquitto brokers joined by a bridge", key: "bridged",
            summary:
                "gw-1, gw-2 and the observer on one broker; gw-3 on a second broker bridged to it (`topic # both 1`; MQTT 5). "
                + "gw-3's broker is SIGKILLed and restarted a lease after the takeover; then gw-1 is SIGKILLed and restarted.",
            brokers: Array(repeating: world.broker.url, count: gateways - 1) + [far.url], observed: world.broker.url,
            protocolVersion: .v5,
            killLastGatewaysBroker: { far.process?.send(SIGKILL) },
            restoreLastGatewaysBroker: { try await far.restart() },
            stop: { await far.stop() })
    }

    /// Returns once a message published on `far` reaches a subscriber on `near` (the bridge is up).
    private static func waitForBridge(near: String, far: String) async throws {
        let listener = try MQTTClient(configuration: try MQTTConfiguration(url: near))
        let sender = try MQTTClient(configuration: try MQTTConfiguration(url: far))
        listener.start()
        sender.start()
        try await listener.connected()
        try await sender.connected()
        try listener.subscribe("bench/bridge-probe")
        let arrived = Flag()
        let listening = Task { for await _ in listener.messages { arrived.raise() } }
        let deadline = ContinuousClock.now + .seconds(30)
        while !arrived.isRaised, ContinuousClock.now < deadline {
            try sender.publish(MQTTMessage(topic: "bench/bridge-probe", string: "1", qos: .atLeastOnce))
            try await Task.sleep(for: .milliseconds(250))
        }
        listening.cancel()
        await listener.stop()
        await sender.stop()
        if !arrived.isRaised { throw BenchFailure("the brokers' bridge did not come up within 30 s") }
    }

    /// A three-node RabbitMQ cluster, gateway `i` on node `i`, the observer on node 1 (MQTT 3.1.1).
    static func rabbitMQ(gateways: Int) async throws -> FleetTopology {
        let cluster = try await RabbitMQCluster.start(nodes: gateways)
        let last = gateways - 1
        return FleetTopology(
            title: "A three-node RabbitMQ cluster", key: "rabbitmq",
            summary:
                "Debian's rabbitmq-server 3.10 with its MQTT plugin (MQTT 3.1.1); gw-N on node N, the observer on node 1. "
                + "Node 3 is SIGKILLed and restarted a lease after the takeover; then gw-1 is SIGKILLed and restarted.",
            brokers: (0..<gateways).map { cluster.url(node: $0) },
            observed: cluster.url(node: 0), protocolVersion: .v311,
            killLastGatewaysBroker: { await cluster.kill(node: last) },
            restoreLastGatewaysBroker: { try await cluster.restart(node: last) },
            stop: { await cluster.stop() })
    }

    private final class Flag: Sendable {
        private let raised = Mutex(false)
        func raise() { raised.withLock { $0 = true } }
        var isRaised: Bool { raised.withLock { $0 } }
    }
}
