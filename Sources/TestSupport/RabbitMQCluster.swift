import Foundation
import Locks

/// A real clustered broker for one test or benchmark: Debian's `rabbitmq-server` nodes on 127.0.0.1
/// with the MQTT plugin (MQTT 3.1.1 only; retained messages are kept by the node that received them),
/// formed into one cluster by classic peer discovery. A node is ready once it accepts an MQTT CONNECT.
///
/// Everything is private to the instance: its own directory, its own `epmd` on a free port (so node
/// names never meet another run's), its own Erlang cookie, free MQTT and distribution ports. The
/// nodes log to stdout (kept in each node's folder). Every process is killed, and the directory
/// removed, on `stop()` or release.
public final class RabbitMQCluster: Sendable {
    /// The MQTT port of each node, in node order.
    public let mqttPorts: [Int]
    /// The temporary directory with every node's configuration, database and log.
    public let directory: String
    private let epmdPort: Int
    private let distributionPorts: [Int]
    private let epmd: Mutex<ManagedProcess?>
    private let nodes: Mutex<[ManagedProcess?]>

    /// `mqtt://127.0.0.1:PORT` of node `index` (0-based).
    public func url(node index: Int) -> String { "mqtt://127.0.0.1:\(mqttPorts[index])" }

    /// The running node `index` (nil while it is down).
    public func process(node index: Int) -> ManagedProcess? { nodes.withLock { $0[index] } }

    /// Starts `count` nodes and returns once every one has joined the cluster and accepts MQTT.
    /// The first node starts alone, then the others join it together.
    public static func start(nodes count: Int = 3, timeout: Duration = .seconds(120)) async throws -> RabbitMQCluster {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rabbitmq-\(UUID().uuidString.prefix(8))"
        ).path
        let cluster = RabbitMQCluster(
            directory: directory, epmdPort: try FreePort.allocate(),
            mqttPorts: try (0..<count).map { _ in try FreePort.allocate() },
            distributionPorts: try (0..<count).map { _ in try FreePort.allocate() })
        do {
            try cluster.writeFiles()
            try await cluster.startEPMD()
            // One node after the other, each ready (its MQTT CONNECT accepted) before the next starts. RabbitMQ 3.10's
            // MQTT plugin tracks client ids in a Raft cluster of its own (mqtt_node) that every node joins as it
            // starts: with the second and third started at once, the third once took TCP and logged "Server startup
            // complete" and then answered no CONNECT for 60 s (one run of five of the BlueZoo world).
            for index in 0..<count { try await cluster.launch(node: index, timeout: timeout) }
            return cluster
        } catch {
            await cluster.stop()
            throw error
        }
    }

    private init(directory: String, epmdPort: Int, mqttPorts: [Int], distributionPorts: [Int]) {
        self.directory = directory
        self.epmdPort = epmdPort
        self.mqttPorts = mqttPorts
        self.distributionPorts = distributionPorts
        self.epmd = Mutex(nil)
        self.nodes = Mutex(Array(repeating: nil, count: mqttPorts.count))
    }

    deinit {
        nodes.withLock { $0 = [] }
        epmd.withLock { $0 = nil }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Kills node `index` without a goodbye (SIGKILL to the VM and its helpers): its MQTT clients'
    /// wills are never published, and the other nodes see it leave at once (its sockets close).
    public func kill(node index: Int) async {
        let process = nodes.withLock { nodes in
            defer { nodes[index] = nil }
            return nodes[index]
        }
        process?.send(SIGKILL)
        _ = try? await process?.waitForExit(timeout: .seconds(10))
    }

    /// Each running node's last `count` log lines, for a failed test's report: what RabbitMQ said while a client's
    /// connections were closed is in no other log.
    public func report(lines count: Int = 80) -> String {
        (0..<mqttPorts.count).map { index in
            "--- rabbitmq \(name(of: index)), its last \(count) lines ---\n"
                + (process(node: index)?.outputTail(count) ?? "(not running)")
        }.joined(separator: "\n")
    }

    /// Starts node `index` again on its database, so it rejoins the cluster.
    public func restart(node index: Int, timeout: Duration = .seconds(120)) async throws {
        await kill(node: index)
        try await launch(node: index, timeout: timeout)
    }

    /// Stops every node and epmd (SIGTERM, then SIGKILL), and removes the directory.
    public func stop() async {
        let running = nodes.withLock { nodes in
            defer { nodes = nodes.map { _ in nil } }
            return nodes.compactMap { $0 }
        }
        await withTaskGroup(of: Void.self) { group in
            for process in running { group.addTask { _ = await process.terminate(grace: .seconds(10)) } }
        }
        let daemon = epmd.withLock { process in
            defer { process = nil }
            return process
        }
        await daemon?.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func name(of index: Int) -> String { "g2m\(index + 1)@localhost" }

    private func folder(of index: Int) -> String { "\(directory)/node\(index + 1)" }

    private func writeFiles() throws {
        let files = FileManager.default
        try files.createDirectory(atPath: "\(directory)/home", withIntermediateDirectories: true)
        // Erlang refuses a cookie file that others can read; every node and rabbitmqctl share this home.
        let cookie = "\(directory)/home/.erlang.cookie"
        try "G2M\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))".write(
            toFile: cookie, atomically: false, encoding: .utf8)
        chmod(cookie, 0o400)
        let peers = mqttPorts.indices.map { "cluster_formation.classic_config.nodes.\($0 + 1) = \(name(of: $0))" }
        for index in mqttPorts.indices {
            try files.createDirectory(atPath: folder(of: index), withIntermediateDirectories: true)
            let configuration =
                [
                    "listeners.tcp = none",  // no AMQP: the MQTT plugin is all the tests use
                    "mqtt.listeners.tcp.default = 127.0.0.1:\(mqttPorts[index])",
                    "mqtt.allow_anonymous = true",
                    "cluster_formation.peer_discovery_backend = classic_config",
                ] + peers
            try (configuration.joined(separator: "\n") + "\n").write(
                toFile: "\(folder(of: index))/rabbitmq.conf", atomically: true, encoding: .utf8)
            try "[rabbitmq_mqtt].\n".write(
                toFile: "\(folder(of: index))/enabled_plugins", atomically: true, encoding: .utf8)
        }
    }

    /// What every node, and rabbitmqctl, runs with.
    private func environment(node index: Int) -> [String: String] {
        let folder = folder(of: index)
        return [
            "HOME": "\(directory)/home",
            "ERL_EPMD_PORT": "\(epmdPort)",
            "RABBITMQ_NODENAME": name(of: index),
            "RABBITMQ_BASE": folder,
            "RABBITMQ_CONFIG_FILE": "\(folder)/rabbitmq.conf",
            "RABBITMQ_ENABLED_PLUGINS_FILE": "\(folder)/enabled_plugins",
            "RABBITMQ_MNESIA_BASE": "\(folder)/mnesia",
            "RABBITMQ_LOG_BASE": "\(folder)/log",
            "RABBITMQ_PID_FILE": "\(folder)/pid",
            "RABBITMQ_DIST_PORT": "\(distributionPorts[index])",
            "RABBITMQ_LOGS": "-",
            // One scheduler without busy-waiting: three VMs share a 2-core machine with the test.
            "RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS": "+S 1:1 +sbwt none +sbwtdcpu none +sbwtdio none",
        ]
    }

    /// epmd in the foreground, on the cluster's own port, so it dies with the cluster.
    private func startEPMD() async throws {
        let process = try ManagedProcess.launch(
            "epmd", arguments: ["-port", "\(epmdPort)", "-address", "127.0.0.1"], name: "epmd:\(epmdPort)")
        epmd.withLock { $0 = process }
        let port = epmdPort
        try await withTimeout(.seconds(10), "epmd to listen on \(port)") {
            while !FreePort.isAccepting(port: port) {
                if let exit = process.exit { throw StartFailure(description: "epmd \(exit):\n\(process.outputText)") }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    private func launch(node index: Int, timeout: Duration) async throws {
        let process = try ManagedProcess.launch(
            "/usr/lib/rabbitmq/bin/rabbitmq-server", environment: environment(node: index),
            name: "rabbitmq:\(name(of: index))",
            logFile: "\(folder(of: index))/node.log")
        nodes.withLock { $0[index] = process }
        let last = Mutex("none")
        do {
            // "Server startup complete" comes after peer discovery has joined the node to the cluster.
            try await process.waitForLine(containing: "Server startup complete", timeout: timeout)
            // Ready is what MQTT says: the node takes TCP, and even logs that its MQTT listener started,
            // while it still answers CONNECT with "server unavailable".
            let port = mqttPorts[index]
            try await withTimeout(.seconds(60), "MQTT CONNECT accepted on \(port)") {
                while true {
                    do {
                        let code = try MQTTHandshake.connackCode(
                            port: port, clientID: "g2m-ready-\(index)", timeout: .seconds(2))
                        if code == MQTTHandshake.accepted { return }
                        last.withLock { $0 = "CONNACK \(code)" }
                    } catch {
                        last.withLock { $0 = "\(error)" }
                    }
                    if let exit = process.exit { throw StartFailure(description: "the node \(exit)") }
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        } catch {
            throw StartFailure(
                description:
                    "RabbitMQ node \(name(of: index)) did not start: \(error) (last MQTT answer: \(last.withLock { $0 }))"
            )
        }
    }

    /// Thrown when a node does not come up.
    public struct StartFailure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, with the node's output.
        public let description: String
    }
}
