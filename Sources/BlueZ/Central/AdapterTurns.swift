/// One thing at a time per adapter, in the order asked. `BlueZClient` keeps two: connection attempts
/// (the kernel creates one LE connection at a time anyway, and peers do the same: Home Assistant's
/// Bluetooth stack holds a lock per adapter while connecting) and discovery changes.
actor AdapterTurns {
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` when nothing else runs on `adapterPath`.
    func withTurn<T: Sendable>(on adapterPath: String, _ body: () async throws -> T) async throws -> T {
        if busy.contains(adapterPath) {
            await withCheckedContinuation { waiting[adapterPath, default: []].append($0) }
        } else {
            busy.insert(adapterPath)
        }
        defer { handOver(adapterPath) }
        return try await body()
    }

    private func handOver(_ adapterPath: String) {
        if var queue = waiting[adapterPath], !queue.isEmpty {
            queue.removeFirst().resume()
            waiting[adapterPath] = queue.isEmpty ? nil : queue
        } else {
            busy.remove(adapterPath)
        }
    }
}
