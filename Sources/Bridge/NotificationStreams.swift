/// A session's notification streams: one task per characteristic, reading its values into the session.
/// Every family keeps them the same way: started on subscribing, stopped one by one or all at teardown.
struct NotificationStreams {
    private var tasks: [String: Task<Void, Never>] = [:]

    /// Reads `stream` into `deliver` until the stream ends or the task is cancelled.
    mutating func start(
        _ characteristic: String, _ stream: AsyncStream<[UInt8]>, deliver: @escaping @Sendable ([UInt8]) async -> Void
    ) {
        tasks[characteristic]?.cancel()
        tasks[characteristic] = Task {
            for await bytes in stream { await deliver(bytes) }
        }
    }

    func isRunning(_ characteristic: String) -> Bool { tasks[characteristic] != nil }

    /// Forgets the characteristic's task without cancelling it: it ends with its stream, after delivering
    /// what the device sent before the stop. Await it to know that.
    mutating func release(_ characteristic: String) -> Task<Void, Never>? { tasks.removeValue(forKey: characteristic) }

    mutating func cancelAll() {
        for task in tasks.values { task.cancel() }
        tasks = [:]
    }
}
