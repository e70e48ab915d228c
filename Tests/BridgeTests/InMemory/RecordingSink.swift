import Locks
import MQTT
import Testing

/// Where a session under test publishes: every message kept in order, and waits for the next one on a
/// topic answered as it arrives (no sleeping).
final class RecordingSink: MessageSink {
    private struct Waiter {
        var id: Int
        var topic: String
        var after: Int
        var predicate: @Sendable (String) -> Bool
        var continuation: CheckedContinuation<MQTTMessage, Never>
    }

    private let state = Mutex<(messages: [MQTTMessage], waiters: [Waiter], nextWaiter: Int)>(([], [], 0))

    /// How long `next` waits before it records an issue and returns an empty message: a test whose message never
    /// comes fails, naming the topic, rather than hanging the whole run.
    static let bound = Duration.seconds(120)

    func publish(_ message: MQTTMessage) throws {
        let ready = state.withLock { state in
            state.messages.append(message)
            let index = state.messages.count - 1
            let payload = message.payloadString ?? ""
            let (ready, waiting) = state.waiters.partitioned {
                $0.topic == message.topic && index >= $0.after && $0.predicate(payload)
            }
            state.waiters = waiting
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: message) }
    }

    var messages: [MQTTMessage] { state.withLock { $0.messages } }

    /// How many messages so far: `next(on:after:)` from here waits for a newer one.
    var mark: Int { state.withLock { $0.messages.count } }

    func payloads(on topic: String) -> [String] { messages.filter { $0.topic == topic }.map { $0.payloadString ?? "" } }

    /// The first message on `topic` at index `after` or later whose payload `predicate` takes, received
    /// already or awaited (at most `bound`: then an issue is recorded and an empty message returned).
    @discardableResult
    func next(
        on topic: String, after mark: Int = 0, where predicate: @escaping @Sendable (String) -> Bool = { _ in true }
    ) async -> MQTTMessage {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        // The bound's timer ends with the wait, so no sleeping task outlives the test.
        let timer = Task { [self] in
            try? await Task.sleep(for: Self.bound)
            guard !Task.isCancelled else { return }
            let expired = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            guard let expired else { return }
            Issue.record(
                "no message on \(topic) from index \(mark) within \(Self.bound); there: \(payloads(on: topic))")
            expired.continuation.resume(returning: MQTTMessage(topic: topic, payload: []))
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let found = state.withLock { state -> MQTTMessage? in
                if let index = state.messages.indices.first(where: {
                    $0 >= mark && state.messages[$0].topic == topic && predicate(state.messages[$0].payloadString ?? "")
                }) {
                    return state.messages[index]
                }
                state.waiters.append(
                    Waiter(id: id, topic: topic, after: mark, predicate: predicate, continuation: continuation))
                return nil
            }
            if let found { continuation.resume(returning: found) }
        }
    }
}

extension Array {
    /// The elements that satisfy `belongs`, and the rest, each in order.
    fileprivate func partitioned(_ belongs: (Element) -> Bool) -> ([Element], [Element]) {
        (filter(belongs), filter { !belongs($0) })
    }
}
