/// One thing at a time per key, in the order asked; a key nobody waits on is forgotten. `BlueZClient` keeps
/// three: per adapter, connection attempts (the kernel creates one LE connection at a time anyway, and peers
/// do the same: Home Assistant's Bluetooth stack holds a lock per adapter while connecting) and discovery
/// changes; per device, GATT operations, as the vendors' clients run them (Android's GattController, iOS's
/// FSBleOperationQueue): a peripheral handles one ATT request at a time anyway, and order keeps
/// request/acknowledge pairs together.
actor Turns {
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` when nothing else runs on `key`.
    func withTurn<T: Sendable>(on key: String, _ body: () async throws -> T) async throws -> T {
        if busy.contains(key) {
            await withCheckedContinuation { waiting[key, default: []].append($0) }
        } else {
            busy.insert(key)
        }
        defer { handOver(key) }
        return try await body()
    }

    /// Hands the turn to the next waiter without freeing it in between, so that nobody overtakes.
    private func handOver(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            queue.removeFirst().resume()
            waiting[key] = queue.isEmpty ? nil : queue
        } else {
            busy.remove(key)
        }
    }
}
