/// Thrown by `withTimeout` when the operation did not finish in time.
public struct TimeoutError: Error, CustomStringConvertible, Sendable {
    /// What was being waited for.
    public let what: String
    /// How long it was given.
    public let duration: Duration

    /// A sentence for test failures.
    public var description: String { "timed out after \(duration) waiting for \(what)" }

    public init(what: String, duration: Duration) {
        self.what = what
        self.duration = duration
    }
}

/// Runs `operation`, throwing `TimeoutError` if it takes longer than `duration`.
///
/// The operation is cancelled on timeout and must honour cancellation (every `await` on a
/// stream, sleep, or continuation in TestSupport does), or the timeout cannot end the wait.
public func withTimeout<T: Sendable>(
    _ duration: Duration,
    _ what: String = "operation",
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: duration)
            throw TimeoutError(what: what, duration: duration)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw CancellationError() }
        return first
    }
}
