import Foundation
import Logging
import MQTT
import TestSupport
import Testing

/// Test clients log nothing unless MQTT_TEST_LOG is set (then at debug level, to stderr).
let testLogger: Logger = {
    guard ProcessInfo.processInfo.environment["MQTT_TEST_LOG"] != nil else {
        return Logger(label: "mqtt-test", factory: { _ in SwiftLogNoOpLogHandler() })
    }
    var logger = Logger(label: "mqtt-test", factory: { StreamLogHandler.standardError(label: $0) })
    logger.logLevel = .debug
    return logger
}()

/// Runs `body` with a fresh broker, which is stopped afterwards even if `body` throws.
func withBroker(
    _ options: MosquittoBroker.Options = MosquittoBroker.Options(),
    _ body: (MosquittoBroker) async throws -> Void
) async throws {
    let broker = try await MosquittoBroker.start(options: options)
    try await withCleanUp({ await broker.stop() }) { try await body(broker) }
}

/// Runs `body` with a fresh broker that speaks TLS only, with a self-signed certificate for 127.0.0.1 made here,
/// and the TLS settings a client needs to trust it; the broker and the certificate are gone afterwards.
func withTLSBroker(_ body: (MosquittoBroker, MQTTTLSConfiguration) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let certificate = folder + "/broker.pem"
    let key = folder + "/broker.key"
    let openssl = try ManagedProcess.launch(
        "openssl",
        arguments: [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ])
    #expect(try await openssl.waitForExit() == .exited(0), "\(openssl.outputText)")
    var options = MosquittoBroker.Options()
    options.extraConfiguration = ["certfile \(certificate)", "keyfile \(key)"]
    try await withBroker(options) { broker in try await body(broker, MQTTTLSConfiguration(caFile: certificate)) }
}

extension MosquittoBroker {
    /// A client for this broker, not yet started. Fast backoff keeps reconnect tests short.
    func makeClient(
        _ clientID: String,
        version: MQTTProtocolVersion = .v5,
        _ configure: (inout MQTTConfiguration) -> Void = { _ in }
    ) throws -> MQTTClient {
        var configuration = try MQTTConfiguration(url: url, clientID: clientID)
        configuration.protocolVersion = version
        configuration.backoff = MQTTBackoff(initial: .milliseconds(50), maximum: .milliseconds(500), jitter: 0.2)
        configure(&configuration)
        return try MQTTClient(configuration: configuration, logger: testLogger)
    }

    /// A started client that has received its CONNACK.
    func connectedClient(
        _ clientID: String,
        version: MQTTProtocolVersion = .v5,
        _ configure: (inout MQTTConfiguration) -> Void = { _ in }
    ) async throws -> MQTTClient {
        let client = try makeClient(clientID, version: version, configure)
        client.start()
        try await client.connected(timeout: .seconds(5))
        return client
    }

    /// The current broker process; every test broker is running while tests use it.
    var log: ManagedProcess {
        get throws {
            guard let process else { throw MosquittoBroker.StartFailure(description: "broker not running") }
            return process
        }
    }

    /// Subscribes and waits for the broker's SUBACK, so a publish right after cannot overtake
    /// the subscription.
    func subscribe(_ client: MQTTClient, to filter: String, qos: MQTTQoS = .atLeastOnce) async throws {
        let log = try log
        let mark = log.lineCount
        try client.subscribe(filter, qos: qos)
        try await log.waitForLine(containing: "Sending SUBACK to \(client.configuration.clientID)", after: mark)
    }

    /// Runs the real `mosquitto_pub` against this broker and waits for it to succeed.
    func mosquittoPub(_ arguments: [String]) async throws {
        let tool = try ManagedProcess.launch(
            "mosquitto_pub", arguments: ["-h", "127.0.0.1", "-p", "\(port)"] + arguments)
        let exit = try await tool.waitForExit()
        guard exit == .exited(0) else {
            throw MosquittoBroker.StartFailure(description: "mosquitto_pub \(exit):\n\(tool.outputText)")
        }
    }
}

/// Waits for a state that no event announces (a client's counters, which thread polls its socket), looking every 20 ms.
func waitUntil(timeout: Duration, _ condition: @escaping @Sendable () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            throw MosquittoBroker.StartFailure(description: "condition not met within \(timeout)")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// The next message on `client.messages` for which `predicate` holds.
func nextMessage(
    from client: MQTTClient,
    timeout: Duration = .seconds(5),
    where predicate: @escaping @Sendable (MQTTMessage) -> Bool = { _ in true }
) async throws -> MQTTMessage {
    try await withTimeout(timeout, "a message on \(client.configuration.clientID)") {
        for await message in client.messages where predicate(message) {
            return message
        }
        throw CancellationError()
    }
}

/// Every message on `client.messages` up to and including the first for which `last` holds.
func messages(
    from client: MQTTClient,
    timeout: Duration = .seconds(5),
    through last: @escaping @Sendable (MQTTMessage) -> Bool
) async throws -> [MQTTMessage] {
    try await withTimeout(timeout, "messages on \(client.configuration.clientID)") {
        var seen: [MQTTMessage] = []
        for await message in client.messages {
            seen.append(message)
            if last(message) { return seen }
        }
        throw CancellationError()
    }
}

/// The next event on `client.events` for which `predicate` holds.
func nextEvent(
    from client: MQTTClient,
    timeout: Duration = .seconds(5),
    where predicate: @escaping @Sendable (MQTTEvent) -> Bool
) async throws -> MQTTEvent {
    try await withTimeout(timeout, "an event on \(client.configuration.clientID)") {
        for await event in client.events where predicate(event) {
            return event
        }
        throw CancellationError()
    }
}
