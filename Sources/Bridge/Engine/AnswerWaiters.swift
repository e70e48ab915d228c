/// How a write that expects an answer ended.
enum AcknowledgementOutcome: Sendable {
    case answered
    case timedOut
    case failed(any Error)
}

/// Writes waiting for the device's answer, keyed so that a timeout or an error finds its waiter.
struct AnswerWaiters<Message: Sendable> {
    private var waiters: [Int: (matches: @Sendable (Message) -> Bool, outcome: FirstAnswer<AcknowledgementOutcome>)] =
        [:]
    private var nextKey = 0

    /// Registers a waiter before its write goes out, so that an answer cannot slip past it.
    mutating func register(
        _ matches: @escaping @Sendable (Message) -> Bool, _ outcome: FirstAnswer<AcknowledgementOutcome>
    ) -> Int {
        defer { nextKey += 1 }
        waiters[nextKey] = (matches, outcome)
        return nextKey
    }

    mutating func remove(_ key: Int) {
        waiters.removeValue(forKey: key)
    }

    /// A message arrived: every waiter it answers is released.
    mutating func deliver(_ message: Message) {
        for (key, waiter) in waiters where waiter.matches(message) {
            waiters.removeValue(forKey: key)
            waiter.outcome.answer(.answered)
        }
    }

    /// The link is gone: nobody will answer.
    mutating func cancelAll() {
        for (_, waiter) in waiters { waiter.outcome.answer(.timedOut) }
        waiters = [:]
    }
}

extension FirstAnswer where Value == AcknowledgementOutcome {
    /// The wait of a registered answer waiter (`ConnectedDevice.request`): sends, then waits up
    /// to `timeout`, counted from before the send; true when the answer came. A failed send throws.
    func awaitAnswer(after send: @Sendable () async throws -> Void, timeout: Duration) async throws -> Bool {
        let timer = answer(.timedOut, at: .now + timeout)
        defer { timer.cancel() }
        do {
            try await send()
        } catch {
            answer(.failed(error))
        }
        // A cancelled waiter (its connection ended: `ConnectionScope.close`) stops waiting at once.
        let result = await withTaskCancellationHandler {
            await value
        } onCancel: {
            answer(.timedOut)
        }
        switch result {
        case .answered: return true
        case .timedOut: return false
        case .failed(let error): throw error
        }
    }
}
