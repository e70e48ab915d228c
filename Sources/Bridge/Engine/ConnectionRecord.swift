import Locks

/// A device's connection state, held once. Its session sets it as it publishes `<family>/<id>/connection`; the
/// gateway reads it through the session table (inventory, health report, fleet), and a command that waits for its
/// device waits here, released by the same change that records `connected`.
final class ConnectionRecord: Sendable {
    private struct State {
        /// Nil until the session has said anything: the gateway counts such a session as `connecting`.
        var announced: ConnectionState?
        var waiters: [FirstAnswer<Bool>] = []
    }

    private let state = Mutex(State())

    /// What the session last said; nil before it said anything.
    var announced: ConnectionState? { state.withLock { $0.announced } }

    /// The state as the session sees it: `disconnected` until it says otherwise.
    var current: ConnectionState { announced ?? .disconnected }

    func set(_ newState: ConnectionState) {
        let released = state.withLock { state -> [FirstAnswer<Bool>] in
            state.announced = newState
            guard newState == .connected else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in released { waiter.answer(true) }
    }

    /// Waits until the device is connected, or `deadline` passes (also one already past), or the task is cancelled;
    /// returns whether it connected. The check and the registration are one step, so a change cannot slip between.
    func waitUntilConnected(until deadline: ContinuousClock.Instant) async -> Bool {
        let connected = FirstAnswer<Bool>()
        let alreadyConnected = state.withLock { state -> Bool in
            if state.announced == .connected { return true }
            state.waiters.append(connected)
            return false
        }
        if alreadyConnected { return true }
        let timer = connected.answer(false, at: deadline)
        defer {
            timer.cancel()
            state.withLock { $0.waiters.removeAll { $0 === connected } }
        }
        return await withTaskCancellationHandler {
            await connected.value
        } onCancel: {
            connected.answer(false)
        }
    }
}
