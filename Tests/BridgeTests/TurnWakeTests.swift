import Testing

@testable import Bridge

/// The fleet's turn waits a second, or less when a will comes (`TurnWake`): nothing here waits for a deadline to pass.
@Suite(.timeLimit(.minutes(1))) struct TurnWakeTests {
    @Test func aWakeBeforeOrDuringTheWaitEndsItWellBeforeItsDeadline() async {
        let wake = TurnWake()
        wake.wake()
        await wake.wait(until: .now + .seconds(3600))  // a wake with nobody waiting counts for the next wait

        let waiting = Task { await wake.wait(until: .now + .seconds(3600)) }
        // Woken however the wait and the wake interleave: before it registers (pending) or after (answered).
        wake.wake()
        await waiting.value
    }

    @Test func aCancelledWaitEndsAndAPastDeadlineReturnsAtOnce() async {
        let wake = TurnWake()
        let waiting = Task { await wake.wait(until: .now + .seconds(3600)) }
        waiting.cancel()
        await waiting.value
        await wake.wait(until: .now - .seconds(1))
    }
}
