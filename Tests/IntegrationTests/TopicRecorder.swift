import Locks
import MQTT
import TestSupport

/// Subscribes to everything on a broker and lets a test wait for the message it expects.
final class TopicRecorder: Sendable {
    private struct Waiter {
        var topic: String
        var predicate: @Sendable (MQTTMessage) -> Bool
        var continuation: CheckedContinuation<MQTTMessage, Never>
    }

    private struct State {
        var received: [MQTTMessage] = []
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
    }

    /// A shared home for the lock, which cannot itself be copied into the reader task.
    private final class Shared: Sendable {
        let mutex = Mutex(State())
        func withLock<R: Sendable>(_ body: (inout sending State) -> sending R) -> R { mutex.withLock(body) }
    }

    let client: MQTTClient
    private let state = Shared()
    private let reader: Task<Void, Never>

    /// A recorder on `world`'s broker, stopped with the world even when the test throws before its own `stop()`.
    convenience init(world: TestWorld, filter: String = "#") async throws {
        try await self.init(url: world.broker.url, filter: filter)
        world.atStop { [self] in await self.stop() }
    }

    convenience init(url: String, filter: String = "#") async throws {
        try await self.init(configuration: try MQTTConfiguration(url: url), filter: filter)
    }

    init(configuration: MQTTConfiguration, filter: String = "#") async throws {
        let client = try MQTTClient(configuration: configuration)
        self.client = client
        let state = state
        reader = Task {
            for await message in client.messages {
                let matched = state.withLock { state -> [CheckedContinuation<MQTTMessage, Never>] in
                    state.received.append(message)
                    let ready = state.waiters.filter { $0.value.topic == message.topic && $0.value.predicate(message) }
                    for key in ready.keys { state.waiters[key] = nil }
                    return ready.values.map(\.continuation)
                }
                for waiter in matched { waiter.resume(returning: message) }
            }
        }
        client.start()
        try client.subscribe(filter, qos: .atLeastOnce)
        try await client.connected(timeout: .seconds(10))
    }

    var messages: [MQTTMessage] { state.withLock { $0.received } }

    /// How many messages have arrived so far: pass it as `after:` to wait only for later ones.
    var mark: Int { state.withLock { $0.received.count } }

    func messages(on topic: String) -> [MQTTMessage] { messages.filter { $0.topic == topic } }

    /// The messages on `topic` that arrived after `mark`.
    func messages(on topic: String, after mark: Int) -> [MQTTMessage] {
        messages.dropFirst(mark).filter { $0.topic == topic }
    }

    /// Waits for the first message (received so far or later) on `topic` that satisfies `predicate`.
    @discardableResult
    func waitFor(
        _ topic: String, after mark: Int = 0, timeout: Duration? = nil,
        where predicate: @escaping @Sendable (MQTTMessage) -> Bool = { _ in true }
    ) async throws -> MQTTMessage {
        let timeout = timeout ?? .seconds(20) * BlueZWorld.patience
        let state = state
        let key = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let cancel: @Sendable () -> Void = {
            // Resume an abandoned waiter so that the timeout can end the wait.
            let abandoned = state.withLock { $0.waiters.removeValue(forKey: key) }
            abandoned?.continuation.resume(returning: MQTTMessage(topic: "", payload: []))
        }
        // A timeout names what did arrive on the topic, so that a failure in CI explains itself.
        let seen = { [state] in
            let payloads = state.withLock {
                $0.received.dropFirst(mark).filter { $0.topic == topic }.suffix(3).map {
                    $0.payloadString ?? "<binary>"
                }
            }
            return
                "a message on \(topic) (the last seen there: \(payloads.isEmpty ? "none" : payloads.joined(separator: " | ")))"
        }
        let message: MQTTMessage
        do {
            message = try await waitOnce(
                topic, mark: mark, key: key, timeout: timeout, predicate: predicate, cancel: cancel)
        } catch is TimeoutError {
            throw TimeoutError(what: seen(), duration: timeout)
        }
        guard message.topic == topic else { throw TimeoutError(what: seen(), duration: timeout) }
        return message
    }

    private func waitOnce(
        _ topic: String, mark: Int, key: Int, timeout: Duration, predicate: @escaping @Sendable (MQTTMessage) -> Bool,
        cancel: @escaping @Sendable () -> Void
    ) async throws -> MQTTMessage {
        let state = state
        return try await withTimeout(timeout, "a message on \(topic)") {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let early = state.withLock { state -> MQTTMessage? in
                        if let match = state.received.dropFirst(mark).first(where: {
                            $0.topic == topic && predicate($0)
                        }) {
                            return match
                        }
                        state.waiters[key] = Waiter(topic: topic, predicate: predicate, continuation: continuation)
                        return nil
                    }
                    if let early { continuation.resume(returning: early) }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    /// What the broker held retained when this recorder subscribed, by topic: the broker sends the retained
    /// messages on subscribing, before anything published later, so a marker that comes back closes the list.
    func retainedAtSubscription() async throws -> [String: String] {
        let marker = "test/marker/\(UInt64.random(in: 0...UInt64.max))"
        try publish(marker, "")
        try await waitFor(marker, after: 0)
        return Dictionary(
            messages.filter(\.retain).map { ($0.topic, $0.payloadString ?? "") }, uniquingKeysWith: { _, last in last })
    }

    func publish(
        _ topic: String, _ payload: String, retain: Bool = false, responseTopic: String? = nil,
        correlation: [UInt8]? = nil
    ) throws {
        try client.publish(
            MQTTMessage(
                topic: topic, string: payload, qos: .atLeastOnce, retain: retain, responseTopic: responseTopic,
                correlationData: correlation))
    }

    func stop() async {
        reader.cancel()
        await client.stop()
    }
}

extension TopicRecorder {
    /// Waits until the gateway has seen `address`: a scan reports it (a device that is none of the gateway's is in
    /// no retained list, and a `connect` request needs a device BlueZ knows).
    func waitUntilSeen(_ address: String, gateway: String = "test") async throws {
        let mark = mark
        try publish("gatt2mqtt/\(gateway)/request/scan", #"{"duration_s":30}"#)
        try await waitFor("gatt2mqtt/\(gateway)/scan", after: mark) {
            $0.payloadString?.contains(#""address":"\#(address)""#) == true
        }
    }
}
