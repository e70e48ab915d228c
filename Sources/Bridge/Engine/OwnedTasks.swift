import Locks

/// The work a session starts beside its caller (a keep-alive answer, navigation writes a button caused,
/// a power-off): owned, so that none of it outlives the link. Each task forgets itself when it ends;
/// `cancelAll` ends the rest.
final class OwnedTasks: Sendable {
    private let state = Mutex<(next: UInt64, running: [UInt64: Task<Void, Never>])>((0, [:]))

    func spawn(_ body: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let id = state.next
            state.next += 1
            // Inserted under the lock that `finished` takes: a task that ends at once cannot be left behind.
            state.running[id] = Task { [weak self] in
                await body()
                self?.finished(id)
            }
        }
    }

    func cancelAll() {
        let running = state.withLock { state in
            defer { state.running = [:] }
            return Array(state.running.values)
        }
        for task in running { task.cancel() }
    }

    var count: Int { state.withLock { $0.running.count } }

    private func finished(_ id: UInt64) {
        _ = state.withLock { $0.running.removeValue(forKey: id) }
    }
}
