import Locks

/// Every task of a device's connection: its notification streams, its periodic reads and what the session starts
/// beside its caller (a keep-alive answer, navigation writes, a power-off). A session stores no task and keeps no
/// list of them to cancel: it starts them here, by a key when it replaces or stops one later, and the lifecycle
/// ends them all when the link ends (`close`), cancelling them and waiting until each has returned, so that none
/// outlives the link and none publishes after the session has forgotten the connection's state.
///
/// What is started while no link is up (navigation coalescing a command taken while the belt is away) belongs to
/// the next connection's scope and ends with it.
final class ConnectionScope: Sendable {
    private struct State {
        var next: UInt64 = 0
        var running: [UInt64: Task<Void, Never>] = [:]
        /// The keyed tasks: a new one under a key cancels the one it replaces.
        var keyed: [String: UInt64] = [:]
    }

    private let state = Mutex(State())

    /// How long `close` waits for a cancelled task to return before it leaves it behind (a call into BlueZ that does
    /// not heed cancellation): the next connection must not wait on the last one's stragglers.
    static let closeBound = Duration.seconds(5)

    /// Runs `body` until it returns or the scope closes; under `key`, in place of the task running under it, which
    /// is cancelled.
    func spawn(_ key: String? = nil, _ body: @escaping @Sendable () async -> Void) {
        start(key, onlyReplacing: false, body)
    }

    /// Starts `body` under `key` in place of the task running under it, checked under the lock that starts it: false,
    /// and nothing started, when none runs (its connection ended, or it was cancelled).
    @discardableResult
    private func start(
        _ key: String?, onlyReplacing: Bool, _ body: @escaping @Sendable () async -> Void
    ) -> Bool {
        let (started, replaced) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            if onlyReplacing, key.flatMap({ state.keyed[$0] }) == nil { return (false, nil) }
            let id = state.next
            state.next += 1
            var replaced: Task<Void, Never>?
            if let key, let old = state.keyed.updateValue(id, forKey: key) { replaced = state.running[old] }
            // Inserted under the lock that `finished` takes: a task that ends at once cannot be left behind.
            state.running[id] = Task { [weak self] in
                await body()
                self?.finished(id, key: key)
            }
            return (true, replaced)
        }
        replaced?.cancel()
        return started
    }

    /// Reads `stream` into `deliver` until the stream ends, under the characteristic's key.
    func stream(
        _ characteristic: String, _ stream: AsyncStream<[UInt8]>, deliver: @escaping @Sendable ([UInt8]) async -> Void
    ) {
        spawn(characteristic) {
            for await bytes in stream { await deliver(bytes) }
        }
    }

    /// Runs `body` every `interval` (the first time after one interval) under `key`; with `onlyReplacing`, only in
    /// place of a task running under it (false when none runs): a new interval for work that may have ended.
    @discardableResult
    func repeating(
        _ key: String, every interval: Duration, onlyReplacing: Bool = false,
        _ body: @escaping @Sendable () async -> Void
    ) -> Bool {
        start(key, onlyReplacing: onlyReplacing) {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled else { return }
                await body()
            }
        }
    }

    func isRunning(_ key: String) -> Bool { state.withLock { $0.keyed[key] != nil } }

    /// Cancels the task under `key`, if one runs.
    func cancel(_ key: String) {
        state.withLock { state in state.keyed.removeValue(forKey: key).flatMap { state.running[$0] } }?.cancel()
    }

    /// Lets the task under `key` end by itself (a stream after its unsubscription delivers what the device sent
    /// before the stop) and returns it to wait for; it still ends with the scope at the latest.
    func release(_ key: String) -> Task<Void, Never>? {
        state.withLock { state in state.keyed.removeValue(forKey: key).flatMap { state.running[$0] } }
    }

    /// How many tasks run.
    var count: Int { state.withLock { $0.running.count } }

    /// The link ended: cancels every task and waits for them (at most `bound`); false when one was left behind.
    @discardableResult
    func close(within bound: Duration = closeBound) async -> Bool {
        let tasks = state.withLock { state in
            state.keyed = [:]
            return Array(state.running.values)
        }
        for task in tasks { task.cancel() }
        let ended = FirstAnswer<Bool>()
        let waiter = Task {
            for task in tasks { await task.value }
            ended.answer(true)
        }
        let timer = ended.answer(false, at: .now + bound)
        let allEnded = await ended.value
        timer.cancel()
        waiter.cancel()
        return allEnded
    }

    private func finished(_ id: UInt64, key: String?) {
        state.withLock { state in
            state.running.removeValue(forKey: id)
            if let key, state.keyed[key] == id { state.keyed.removeValue(forKey: key) }
        }
    }
}
