/// Runs GATT operations for one device one at a time, in arrival order, as the vendors' clients do
/// (Android's GattController, iOS's FSBleOperationQueue): a peripheral handles one ATT request at
/// a time anyway, and ordering keeps request/acknowledge pairs together.
actor GattOperationQueue {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await operation()
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()  // hand over without unlocking, so nobody overtakes
        }
    }
}
