/// One real-BlueZ world at a time: the guest has one bluetoothd, and a world resets it. Swift Testing
/// runs suites concurrently (`.serialized` orders tests only within a suite), so a real world holds
/// this lease from its start to its stop, and the next one waits its turn.
actor GuestLease {
    static let shared = GuestLease()

    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            held = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
