import Locks

/// A step of the start-up that other services wait for (the broker session, BlueZ): once open it stays
/// open. A waiter whose task is cancelled (a shutdown during start-up) stops waiting at once.
final class StartupGate: Sendable {
    private struct State {
        var open = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    }

    private let state = Mutex(State())

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume(returning: true) }
    }

    /// True once the gate is open; false if the waiting task is cancelled first.
    func passed() async -> Bool {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Cancelled before registering: the handler below has already run and found nothing.
                let now = state.withLock { state -> Bool? in
                    if state.open { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: false)
        }
    }
}
