/// How a write that expects an answer ended.
enum AcknowledgementOutcome: Sendable {
    case answered
    case timedOut
    case failed(any Error)
}

/// Writes waiting for the device's answer, keyed so that a timeout or an error finds its waiter.
struct AnswerWaiters<Message: Sendable> {
    private var waiters: [Int: (matches: @Sendable (Message) -> Bool, continuation: CheckedContinuation<AcknowledgementOutcome, Never>)] = [:]
    private var nextKey = 0

    mutating func makeKey() -> Int {
        defer { nextKey += 1 }
        return nextKey
    }

    mutating func register(_ key: Int, _ matches: @escaping @Sendable (Message) -> Bool, _ continuation: CheckedContinuation<AcknowledgementOutcome, Never>) {
        waiters[key] = (matches, continuation)
    }

    /// A message arrived: every waiter it answers is released.
    mutating func deliver(_ message: Message) {
        for (key, waiter) in waiters where waiter.matches(message) {
            waiters.removeValue(forKey: key)
            waiter.continuation.resume(returning: .answered)
        }
    }

    mutating func finish(_ key: Int, _ outcome: AcknowledgementOutcome) {
        waiters.removeValue(forKey: key)?.continuation.resume(returning: outcome)
    }

    /// The link is gone: nobody will answer.
    mutating func cancelAll() {
        for (_, waiter) in waiters { waiter.continuation.resume(returning: .timedOut) }
        waiters = [:]
    }
}

/// A session whose writes can wait for the device's answer in a notification.
protocol AwaitsAnswers: Actor {
    associatedtype Message: Sendable
    var answers: AnswerWaiters<Message> { get set }
}

extension AwaitsAnswers {
    /// Sends, then waits up to `timeout` for a message that `matches`; true when it came. The waiter is
    /// registered before the write goes out, so an answer cannot slip past it. A failed send throws.
    func send(
        _ send: @escaping @Sendable () async throws -> Void, awaiting matches: @escaping @Sendable (Message) -> Bool,
        timeout: Duration
    ) async throws -> Bool {
        let key = answers.makeKey()
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.finishAnswer(key, .timedOut)
        }
        defer { timer.cancel() }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<AcknowledgementOutcome, Never>) in
            answers.register(key, matches, continuation)
            Task {
                do {
                    try await send()
                } catch {
                    self.finishAnswer(key, .failed(error))
                }
            }
        }
        switch outcome {
        case .answered: return true
        case .timedOut: return false
        case .failed(let error): throw error
        }
    }

    func finishAnswer(_ key: Int, _ outcome: AcknowledgementOutcome) {
        answers.finish(key, outcome)
    }
}
