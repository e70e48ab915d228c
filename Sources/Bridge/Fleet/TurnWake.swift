import Locks

/// Starts the fleet's next turn before its second is up: a gateway's will hands its devices over, and the turn that
/// takes them should not wait out the rest of the second (the fleet benchmark's take-overs after a will reached 1 s).
final class TurnWake: Sendable {
    private struct State {
        /// A wake with nobody waiting: the next wait returns at once.
        var pending = false
        var waiting: FirstAnswer<Void>?
    }

    private let state = Mutex(State())

    func wake() {
        let waiting = state.withLock { state -> FirstAnswer<Void>? in
            guard let waiting = state.waiting else {
                state.pending = true
                return nil
            }
            state.waiting = nil
            return waiting
        }
        waiting?.answer(())
    }

    /// Returns at `deadline`, at a wake (one since the last wait counts), or when the calling task is cancelled.
    func wait(until deadline: ContinuousClock.Instant) async {
        let answer = FirstAnswer<Void>()
        let woken = state.withLock { state -> Bool in
            if state.pending {
                state.pending = false
                return true
            }
            state.waiting = answer
            return false
        }
        if woken { return }
        let timer = answer.answer((), at: deadline)
        defer {
            timer.cancel()
            state.withLock { if $0.waiting === answer { $0.waiting = nil } }
        }
        await withTaskCancellationHandler {
            await answer.value
        } onCancel: {
            answer.answer(())
        }
    }
}
