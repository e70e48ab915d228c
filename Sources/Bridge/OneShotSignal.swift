/// An event that happens once; waiting after it happened returns at once.
final class OneShotSignal: Sendable {
    private let fired = FirstAnswer<Void>()

    func fire() { fired.answer(()) }

    /// Returns once fired, or after `timeout` (then it fires itself, releasing any other waiter too).
    func wait(timeout: Duration) async {
        let timer = Task { [fired] in
            try? await Task.sleep(for: timeout)
            fired.answer(())
        }
        defer { timer.cancel() }
        await fired.value
    }
}
