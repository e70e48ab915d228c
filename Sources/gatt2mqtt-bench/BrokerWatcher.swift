import BlueZ
import Foundation
import Locks
import MQTT

/// The benchmark's subscriber: one MQTT client that takes the time of every message as it is handed
/// over. Stream values (`<prefix>/<id>/<leaf>`, the leaves of `BenchFamily`: each family's stream leaf)
/// are turned back into their sequence at once; other messages are kept whole for the waits of the run
/// (device state, replies, gateway status).
final class BrokerWatcher: Sendable {
    struct Message: Sendable {
        var topic: String
        var payload: String
        var nanoseconds: UInt64
    }

    /// Everything but stream values by topic, the stream payloads that did not parse, and the tasks
    /// waiting for a topic: command replies are awaited, not polled, so that 50 devices' command loads
    /// cost the benchmark's process next to nothing while it measures.
    private final class MessageLog: Sendable {
        struct Waiter {
            var id: UInt64
            var after: UInt64
            var continuation: CheckedContinuation<Bool, Never>
        }
        struct State {
            var messages: [String: [Message]] = [:]
            var malformed = 0
            var waiters: [String: [Waiter]] = [:]
            var nextWaiter: UInt64 = 0
        }
        let state = Mutex(State())

        func append(_ message: Message) {
            let ready = state.withLock { state -> [Waiter] in
                state.messages[message.topic, default: []].append(message)
                guard let waiting = state.waiters[message.topic] else { return [] }
                let (ready, rest) = (
                    waiting.filter { $0.after < message.nanoseconds },
                    waiting.filter { $0.after >= message.nanoseconds }
                )
                state.waiters[message.topic] = rest.isEmpty ? nil : rest
                return ready
            }
            for waiter in ready { waiter.continuation.resume(returning: true) }
        }

        /// Ends the wait `id` on `topic` with false, unless a message ended it first.
        func expire(_ id: UInt64, on topic: String) {
            let expired = state.withLock { state -> Waiter? in
                guard let index = state.waiters[topic]?.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters[topic]?.remove(at: index)
            }
            expired?.continuation.resume(returning: false)
        }
    }

    private let client: MQTTClient
    /// Commands go out on a connection of their own: on the receiving one, the broker's Nagle would hold
    /// a force message back behind the PUBACK of a command until the watcher's delayed ACK (40 ms).
    private let sender: MQTTClient
    private let streamTable = ReceptionTable()
    private let log = MessageLog()
    private let consumer: Task<Void, Never>

    init(port: Int) async throws {
        var configuration = MQTTConfiguration(host: "127.0.0.1", port: port, clientID: "bench-watcher")
        // The bench receives up to tens of thousands of messages a second; never let the hand-over drop any.
        configuration.incomingBufferSize = 1 << 20
        client = try MQTTClient(configuration: configuration)
        sender = try MQTTClient(
            configuration: MQTTConfiguration(host: "127.0.0.1", port: port, clientID: "bench-commands"))
        let (streams, log, messages) = (streamTable, self.log, client.messages)
        consumer = Task {
            for await message in messages {
                let now = MonotonicClock.nanoseconds()
                Self.record(message, at: now, streams: streams, log: log)
            }
        }
        client.start()
        sender.start()
        try await client.connected()
        try await sender.connected()
        try client.subscribe("#", qos: .atMostOnce)
    }

    private static func record(_ message: MQTTMessage, at now: UInt64, streams: ReceptionTable, log: MessageLog) {
        let parts = message.topic.split(separator: "/")
        let text = String(decoding: message.payload, as: UTF8.self)
        if parts.count == 3, let family = BenchFamily(leaf: parts[2]) {
            guard let sequence = family.sequence(payload: text) else {
                log.state.withLock { $0.malformed += 1 }
                return
            }
            streams.append(Reception(sequence: sequence, nanoseconds: now), to: "\(parts[0])/\(parts[1])")
        } else {
            log.append(Message(topic: message.topic, payload: text, nanoseconds: now))
        }
    }

    /// Stream receptions of `prefix/id`, e.g. `a5/001122334451`.
    func receptions(_ key: String) -> [Reception] { streamTable.receptions(key) }

    /// Forgets every stream reception (between phases).
    func clearReceptions() { streamTable.clear() }

    /// Stream payloads that did not parse as a sequence.
    var malformedCount: Int { log.state.withLock { $0.malformed } }

    /// Messages on `topic` received after `after`.
    func messages(on topic: String, after: UInt64 = 0) -> [Message] {
        log.state.withLock { ($0.messages[topic] ?? []).filter { $0.nanoseconds > after } }
    }

    /// Waits until a message on `topic` arrives after `after`; false on timeout.
    func waitForMessage(on topic: String, after: UInt64, timeout: Duration) async -> Bool {
        let log = self.log
        return await withCheckedContinuation { continuation in
            let id = log.state.withLock { state -> UInt64? in
                if state.messages[topic]?.last.map({ $0.nanoseconds > after }) == true { return nil }
                state.nextWaiter += 1
                state.waiters[topic, default: []].append(
                    .init(id: state.nextWaiter, after: after, continuation: continuation))
                return state.nextWaiter
            }
            guard let id else { return continuation.resume(returning: true) }
            Task {
                try? await Task.sleep(for: timeout)
                log.expire(id, on: topic)
            }
        }
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
