import struct Synchronization.Atomic

/// The client's incoming messages, as the one consumer takes them. Besides the stream's bound on how many
/// wait, the bytes that wait are bounded too (`MQTTConfiguration.incomingBufferBytes`): 65 536 messages of
/// the largest size a gateway takes would otherwise be gigabytes while its consumer is behind. A message
/// leaves the count when the consumer takes it (here) or when the stream drops it for a newer one.
public struct MQTTMessages: AsyncSequence, Sendable {
    public typealias Element = MQTTMessage

    let stream: AsyncStream<MQTTMessage>
    let waiting: WaitingBytes

    init(stream: AsyncStream<MQTTMessage>, waiting: WaitingBytes) {
        self.stream = stream
        self.waiting = waiting
    }

    /// Messages from elsewhere than libmosquitto (an in-memory broker), with no bound on the bytes that wait.
    public init(_ stream: AsyncStream<MQTTMessage>) { self.init(stream: stream, waiting: WaitingBytes(limit: nil)) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<MQTTMessage>.AsyncIterator
        let waiting: WaitingBytes

        public mutating func next() async -> MQTTMessage? {
            guard let message = await base.next() else { return nil }
            waiting.remove(message)
            return message
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> MQTTMessage? {
            guard let message = await base.next(isolation: actor) else { return nil }
            waiting.remove(message)
            return message
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), waiting: waiting)
    }
}

/// The bytes of the messages that wait for the consumer: a message's topic and payload.
final class WaitingBytes: Sendable {
    private let count = Atomic<Int>(0)
    let limit: Int?

    init(limit: Int?) { self.limit = limit }

    static func size(of message: MQTTMessage) -> Int { message.topic.utf8.count + message.payload.count }

    /// Adds `message` unless it would take the waiting bytes beyond the limit.
    func admit(_ message: MQTTMessage) -> Bool {
        let size = Self.size(of: message)
        let after = count.add(size, ordering: .relaxed).newValue
        guard let limit, after > limit else { return true }
        count.subtract(size, ordering: .relaxed)
        return false
    }

    func remove(_ message: MQTTMessage) { count.subtract(Self.size(of: message), ordering: .relaxed) }
}
