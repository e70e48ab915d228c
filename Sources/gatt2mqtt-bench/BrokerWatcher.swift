import BlueZ
import Foundation
import MQTT
import Synchronization

/// The benchmark's subscriber: one MQTT client that takes the time of every message as it is handed
/// over. Force values (`<prefix>/<id>/force`) are turned back into their sequence at once; other
/// messages are kept whole for the waits of the run (device state, replies, gateway status).
final class BrokerWatcher: Sendable {
    struct Message: Sendable {
        var topic: String
        var payload: String
        var nanoseconds: UInt64
    }

    /// Everything but force values, and the force payloads that did not parse.
    private final class MessageLog: Sendable {
        let state = Mutex<(messages: [Message], malformed: Int)>(([], 0))
    }

    private let client: MQTTClient
    /// Commands go out on a connection of their own: on the receiving one, the broker's Nagle would hold
    /// a force message back behind the PUBACK of a command until the watcher's delayed ACK (40 ms).
    private let sender: MQTTClient
    private let forceTable = ReceptionTable()
    private let log = MessageLog()
    private let consumer: Task<Void, Never>

    init(port: Int) async throws {
        var configuration = MQTTConfiguration(host: "127.0.0.1", port: port, clientID: "bench-watcher")
        // The bench receives up to tens of thousands of messages a second; never let the hand-over drop any.
        configuration.incomingBufferSize = 1 << 20
        client = try MQTTClient(configuration: configuration)
        sender = try MQTTClient(configuration: MQTTConfiguration(host: "127.0.0.1", port: port, clientID: "bench-commands"))
        let (forces, log, messages) = (forceTable, self.log, client.messages)
        consumer = Task {
            for await message in messages {
                let now = MonotonicClock.nanoseconds()
                Self.record(message, at: now, forces: forces, log: log)
            }
        }
        client.start()
        sender.start()
        try await client.connected()
        try await sender.connected()
        try client.subscribe("#", qos: .atMostOnce)
    }

    private static func record(_ message: MQTTMessage, at now: UInt64, forces: ReceptionTable, log: MessageLog) {
        let parts = message.topic.split(separator: "/")
        let text = String(decoding: message.payload, as: UTF8.self)
        if parts.count == 3, parts[2] == "force" {
            guard let sequence = ForceSequence.sequence(fromPayload: text) else {
                log.state.withLock { $0.malformed += 1 }
                return
            }
            forces.append(Reception(sequence: sequence, nanoseconds: now), to: "\(parts[0])/\(parts[1])")
        } else {
            log.state.withLock { $0.messages.append(Message(topic: message.topic, payload: text, nanoseconds: now)) }
        }
    }

    /// Force receptions of `prefix/id`, e.g. `a5/001122334451`.
    func forces(_ key: String) -> [Reception] { forceTable.receptions(key) }

    /// Forgets every force reception (between phases).
    func clearForces() { forceTable.clear() }

    /// Force payloads that did not parse as a sequence.
    var malformedCount: Int { log.state.withLock { $0.malformed } }

    /// Messages on `topic` received after `after`.
    func messages(on topic: String, after: UInt64 = 0) -> [Message] {
        log.state.withLock { $0.messages.filter { $0.topic == topic && $0.nanoseconds > after } }
    }

    func publish(_ topic: String, _ payload: String, qos: MQTTQoS = .atLeastOnce) throws {
        try sender.publish(MQTTMessage(topic: topic, payload: Array(payload.utf8), qos: qos))
    }

    func stop() async {
        consumer.cancel()
        await sender.stop()
        await client.stop()
    }
}

/// The force payload carries the sequence: the simulator sends raw counts 1, 2, 3, … and every relay
/// publishes `raw × 0.27156315909` newtons with two decimals, which maps back to one raw value.
enum ForceSequence {
    static let newtonsPerCount = 0.27156315909

    static func payload(sequence: Int16) -> String { String(format: "%.2f", Double(sequence) * newtonsPerCount) }

    static func sequence(fromPayload text: String) -> Int16? {
        guard let newtons = Double(text) else { return nil }
        return Int16(exactly: (newtons / newtonsPerCount).rounded())
    }
}
