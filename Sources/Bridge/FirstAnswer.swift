import Locks

/// A value decided once, by whichever side answers first (a connection, a deadline, a cancellation);
/// later answers are ignored, and waiting after the answer returns it at once. There is no window in
/// which an answer can come before the waiter and be lost.
final class FirstAnswer<Value: Sendable>: Sendable {
    private let state = Mutex<(answer: Value?, waiters: [CheckedContinuation<Value, Never>])>((nil, []))

    func answer(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard state.answer == nil else { return [] }
            state.answer = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// Answers `value` at `deadline` unless something answers first (a deadline already past answers at
    /// once). Cancel the returned timer once the answer is in.
    func answer(_ value: Value, at deadline: ContinuousClock.Instant) -> Task<Void, Never> {
        Task {
            try? await Task.sleep(until: deadline)
            answer(value)
        }
    }

    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let answered = state.withLock { state -> Value? in
                    if state.answer == nil { state.waiters.append(continuation) }
                    return state.answer
                }
                if let answered { continuation.resume(returning: answered) }
            }
        }
    }
}
