/// An event that happens once; waiting after it happened returns at once.
final class OneShotSignal: Sendable {
    private let fired = FirstAnswer<Void>()

    func fire() { fired.answer(()) }

    /// Returns once fired, or after `timeout` (then it fires itself, releasing any other waiter too).
    func wait(timeout: Duration) async {
        let timer = fired.answer((), at: .now + timeout)
        defer { timer.cancel() }
        await fired.value
    }
}
