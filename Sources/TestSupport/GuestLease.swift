/// The real-BlueZ guests, one world at a time in each: a guest has one bluetoothd, and a world resets it.
/// Swift Testing runs suites concurrently (`.serialized` orders tests only within a suite), so a real world
/// holds one guest's lease from its start to its stop, and a world that finds every guest held waits its turn.
///
/// The tier mostly waits on Bluetooth's own timing (advertising, connection and scan intervals under
/// btvirt): one guest keeps the machine about a third busy. `RealBlueZGuest.count` guests (two by default)
/// let that many worlds run at once. The lowest free guest is given first, so a run of one test boots one.
actor GuestLease {
    static let shared = GuestLease(guests: RealBlueZGuest.count)

    private var free: Set<Int>
    private var waiting: [CheckedContinuation<Int, Never>] = []

    init(guests: Int) {
        free = Set(0..<max(1, guests))
    }

    /// The guest this world may reset and use, by its number.
    func acquire() async -> Int {
        if let slot = free.min() {
            free.remove(slot)
            return slot
        }
        return await withCheckedContinuation { waiting.append($0) }
    }

    func release(_ slot: Int) {
        if waiting.isEmpty {
            free.insert(slot)
        } else {
            waiting.removeFirst().resume(returning: slot)
        }
    }
}
