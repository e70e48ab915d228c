import Locks

/// One `disconnected()` call's continuation, resumed exactly once: by the loss of the bus or by the caller's
/// cancellation, whichever comes first. Cancellation may come before the continuation is installed (the
/// task was cancelled already); `install` then resumes it at once.
final class LossWaiter: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Void, Never>?)
        case resumed
    }
    private let state = Mutex(State.waiting(nil))

    /// Stores the continuation; false (and the continuation resumed) when the waiter was resumed already.
    func install(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        let installed = state.withLock { state in
            guard case .waiting = state else { return false }
            state = .waiting(continuation)
            return true
        }
        if !installed { continuation.resume() }
        return installed
    }

    func resume() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .resumed
            return continuation
        }
        continuation?.resume()
    }
}
