import Bridge
import Locks
import MQTT
import WakePipe

import struct Synchronization.Atomic

/// A broker in memory, for driving whole gateways without mosquitto: it keeps retained messages (an empty
/// payload clears one), hands each message to every client whose filters match (the sender's own included,
/// as a broker does without No Local), sends the retained ones on subscribing, and publishes a client's will
/// when its connection is cut rather than closed.
final class InMemoryBroker: Sendable {
    private struct Subscriber {
        var filters: [String] = []
        let continuation: AsyncStream<MQTTMessage>.Continuation
        /// Counts a delivery, as a real client counts what the broker sent it (`messagesReceived`).
        let received: @Sendable () -> Void
        /// The Maximum Packet Size the client asked for (MQTT 5): a larger message is not sent to it, and it never
        /// learns of it, as with mosquitto.
        let maximumPacketSize: Int?

        func deliver(_ message: MQTTMessage) {
            // A PUBLISH is its payload, its topic (with a length of 2 bytes) and at least 2 bytes of header.
            if let maximumPacketSize, message.payload.count + message.topic.utf8.count + 4 > maximumPacketSize {
                return
            }
            received()
            continuation.yield(message)
        }
    }

    private struct State {
        var retained: [String: MQTTMessage] = [:]
        var subscribers: [Int: Subscriber] = [:]
        var nextClient = 0
    }

    private let state = Mutex(State())

    /// A new client; `will` is published if it is cut (`InMemoryBrokerClient.cut()`). Messages larger than
    /// `maximumPacketSize` are not sent to it.
    func client(will: MQTTMessage? = nil, maximumPacketSize: Int? = nil) -> InMemoryBrokerClient {
        let id = state.withLock { state in
            defer { state.nextClient += 1 }
            return state.nextClient
        }
        return InMemoryBrokerClient(broker: self, id: id, will: will, maximumPacketSize: maximumPacketSize)
    }

    /// The retained message on `topic`, if any.
    func retained(_ topic: String) -> MQTTMessage? { state.withLock { $0.retained[topic] } }

    /// The topics with a retained message that `filter` matches, sorted.
    func retainedTopics(_ filter: String) -> [String] {
        state.withLock { $0.retained.keys.filter { Self.filter(filter, matches: $0) }.sorted() }
    }

    func connect(
        _ id: Int, continuation: AsyncStream<MQTTMessage>.Continuation, maximumPacketSize: Int?,
        received: @escaping @Sendable () -> Void
    ) {
        state.withLock {
            $0.subscribers[id] = Subscriber(
                continuation: continuation, received: received, maximumPacketSize: maximumPacketSize)
        }
    }

    func disconnect(_ id: Int) {
        state.withLock { $0.subscribers.removeValue(forKey: id) }?.continuation.finish()
    }

    /// Delivers under the lock, so that every client sees messages in the order they were published.
    func publish(_ message: MQTTMessage) {
        state.withLock { state in
            if message.retain {
                if message.payload.isEmpty {
                    state.retained.removeValue(forKey: message.topic)
                } else {
                    state.retained[message.topic] = message
                }
            }
            var delivered = message
            delivered.retain = false
            for subscriber in state.subscribers.values
            where subscriber.filters.contains(where: { Self.filter($0, matches: message.topic) }) {
                subscriber.deliver(delivered)
            }
        }
    }

    func subscribe(_ id: Int, to filter: String) {
        state.withLock { state in
            guard state.subscribers[id] != nil else { return }
            state.subscribers[id]?.filters.append(filter)
            for message in state.retained.values.sorted(by: { $0.topic < $1.topic })
            where Self.filter(filter, matches: message.topic) {
                state.subscribers[id]?.deliver(message)
            }
        }
    }

    /// Keeps `message` as its topic's retained message without handing it to anyone: one published while its
    /// subscribers were away, or kept across a broker restart. They get it when they subscribe again.
    func keep(_ message: MQTTMessage) {
        var retained = message
        retained.retain = true
        let kept = retained
        state.withLock { $0.retained[kept.topic] = kept }
    }

    /// What a client's restore after a reconnect makes the broker do: each SUBSCRIBE sent again brings the retained
    /// messages its filter matches, with the retain flag (each message once here).
    func resendRetained(to id: Int) {
        state.withLock { state in
            guard let subscriber = state.subscribers[id] else { return }
            for message in state.retained.values.sorted(by: { $0.topic < $1.topic })
            where subscriber.filters.contains(where: { Self.filter($0, matches: message.topic) }) {
                subscriber.deliver(message)
            }
        }
    }

    /// The filters client `id` is subscribed to, in the order it subscribed.
    func filters(of id: Int) -> [String] { state.withLock { $0.subscribers[id]?.filters ?? [] } }

    func unsubscribe(_ id: Int, from filter: String) {
        state.withLock { $0.subscribers[id]?.filters.removeAll { $0 == filter } }
    }

    /// MQTT's topic filter rules: `+` is one level, a last `#` is the rest (the parent included), and a
    /// wildcard in the first level matches no `$` topic.
    static func filter(_ filter: String, matches topic: String) -> Bool {
        let filterLevels = filter.split(separator: "/", omittingEmptySubsequences: false)
        let topicLevels = topic.split(separator: "/", omittingEmptySubsequences: false)
        if topic.hasPrefix("$"), filterLevels.first == "+" || filterLevels.first == "#" { return false }
        for (index, level) in filterLevels.enumerated() {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+" && level != topicLevels[index] { return false }
        }
        return filterLevels.count == topicLevels.count
    }
}

/// One client of an `InMemoryBroker`, as the gateway sees its broker (`BrokerConnection`).
final class InMemoryBrokerClient: BrokerConnection {
    private let broker: InMemoryBroker
    private let id: Int
    private let will: MQTTMessage?
    /// Messages larger than this are not sent to it: the Maximum Packet Size it asked for.
    let maximumPacketSize: Int?
    private let stream: AsyncStream<MQTTMessage>
    private let continuation: AsyncStream<MQTTMessage>.Continuation
    private let counts = Mutex(MQTTStatistics())
    private let connectedNow = Atomic<Bool>(false)

    init(broker: InMemoryBroker, id: Int, will: MQTTMessage?, maximumPacketSize: Int?) {
        self.broker = broker
        self.id = id
        self.will = will
        self.maximumPacketSize = maximumPacketSize
        (stream, continuation) = AsyncStream<MQTTMessage>.makeStream()
    }

    func start(host: (any DescriptorHost)?) {
        broker.connect(id, continuation: continuation, maximumPacketSize: maximumPacketSize) { [weak self] in
            self?.counts.withLock { $0.messagesReceived += 1 }
        }
        connectedNow.store(true, ordering: .relaxed)
    }

    func connected(timeout: Duration) async throws {}

    func stop() async {
        connectedNow.store(false, ordering: .relaxed)
        broker.disconnect(id)
    }

    /// The connection drops without a clean stop: the broker publishes the will (unless told not to yet:
    /// `publishWill()` then does, later).
    func cut(publishingWill: Bool = true) {
        connectedNow.store(false, ordering: .relaxed)
        broker.disconnect(id)
        if publishingWill { publishWill() }
    }

    /// The broker publishes the will of this client, whose connection was cut.
    func publishWill() {
        if let will { broker.publish(will) }
    }

    func publish(_ message: MQTTMessage) throws {
        guard connectedNow.load(ordering: .relaxed) else { throw MQTTError.notConnected }
        counts.withLock { $0.messagesPublished += 1 }
        broker.publish(message)
    }

    func subscribe(_ filter: String, qos: MQTTQoS) throws { broker.subscribe(id, to: filter) }

    func unsubscribe(_ filter: String) throws { broker.unsubscribe(id, from: filter) }

    /// The filters this client is subscribed to.
    var filters: [String] { broker.filters(of: id) }

    /// As after a reconnect, when the client subscribes again: the broker sends the retained messages again.
    func resubscribe() { broker.resendRetained(to: id) }

    var messages: MQTTMessages { MQTTMessages(stream) }
    var isConnected: Bool { connectedNow.load(ordering: .relaxed) }
    var statistics: MQTTStatistics { counts.withLock { $0 } }

    // Nothing is restored after a reconnect in memory, so nothing is withheld.
    func withholdOnRestore(_ predicate: @escaping @Sendable (String) -> Bool) {}
    func hasWithheld(under prefix: String) -> Bool { false }
    func releaseWithheld(under prefix: String, republish: Bool) {}
}
