import TestSupport

/// Where the fleet-scale benchmark's gateways meet: one mosquitto (MQTT 5, its `$SYS` counters every second), or
/// the three-node RabbitMQ cluster of the fleet benchmark (MQTT 3.1.1; gateway `i` on node `i` mod 3, the observer
/// on node 1). A new mosquitto for each fleet size, so that no retained message of one run reaches the next.
struct ScaleBroker: Sendable {
    var key: String
    var title: String
    var v311: Bool
    /// The MQTT port gateway `i` connects to (through its relay).
    var gatewayPort: @Sendable (Int) -> Int
    var observerPort: Int
    /// Whether the broker publishes its message counters (`$SYS`).
    var counts: Bool
    var stop: @Sendable () async -> Void

    static func mosquitto() async throws -> ScaleBroker {
        var options = MosquittoBroker.Options()
        // The counters every second; and room for the burst of a fleet's claims to each of its fifty gateways.
        options.extraConfiguration = ["sys_interval 1", "max_queued_messages 100000"]
        let broker = try await MosquittoBroker.start(options: options)
        return ScaleBroker(
            key: "mosquitto", title: "one mosquitto", v311: false, gatewayPort: { _ in broker.port },
            observerPort: broker.port, counts: true, stop: { await broker.stop() })
    }

    /// The cluster is started once and shared by the sizes run on it (a start takes a minute or more).
    static func rabbitMQ(_ cluster: RabbitMQCluster) -> ScaleBroker {
        let ports = cluster.mqttPorts
        return ScaleBroker(
            key: "rabbitmq", title: "the three-node RabbitMQ cluster", v311: true,
            gatewayPort: { ports[$0 % ports.count] }, observerPort: ports[0], counts: false, stop: {})
    }
}
