import Synchronization

/// An event that happens once; waiting after it happened returns at once.
final class OneShotSignal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func fire() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once fired, or after `timeout` (then it fires itself, releasing any other waiter too).
    func wait(timeout: Duration) async {
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.fire()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let firedAlready = state.withLock { state -> Bool in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if firedAlready { continuation.resume() }
        }
    }
}
