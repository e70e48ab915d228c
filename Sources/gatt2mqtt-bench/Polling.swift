/// Waits, looking every 2 ms, until `condition` holds; false on timeout. Only the benchmark's waits
/// use it: no time it measures depends on how quickly this notices.
func poll(timeout: Duration, until condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return condition()
}
