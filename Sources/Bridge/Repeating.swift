/// Runs `body` every `interval` until the returned task is cancelled (the first run after one interval).
func repeating(every interval: Duration, _ body: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    Task {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            await body()
        }
    }
}
