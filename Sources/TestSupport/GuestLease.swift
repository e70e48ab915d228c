/// The real-BlueZ guests, one world at a time in each: a guest has one bluetoothd, and a world resets it.
/// Swift Testing runs suites concurrently (`.serialized` orders tests only within a suite), so a real world
/// holds one guest's lease from its start to its stop, and a world that finds every guest held waits its turn.
///
/// The tier mostly waits on Bluetooth's own timing (advertising, connection and scan intervals under
/// btvirt): one guest keeps the machine about a third busy. `RealBlueZGuest.count` guests (two by default)
/// let that many worlds run at once. The lowest free guest is given first, so a run of one test boots one.
/// A world may ask for the machine alone (`acquire(alone:)`): it is given a guest only when every guest is free, and
/// the others stay idle until it ends. Six bands connecting at once in one guest, on a host twice as slow and with
/// the other guest busy beside it, had bluetoothd answer nothing for ten seconds at a time.
/// Waiters are served in the order they came, so a world that waits to be alone is not passed over for ever.
actor GuestLease {
    static let shared = GuestLease(guests: RealBlueZGuest.count)

    private let guests: Int
    private var free: Set<Int>
    /// The guest of the world that has the machine alone, while it does.
    private var aloneIn: Int?
    private var waiting: [(alone: Bool, continuation: CheckedContinuation<Int, Never>)] = []

    init(guests: Int) {
        self.guests = max(1, guests)
        free = Set(0..<self.guests)
    }

    /// The guest this world may reset and use, by its number.
    func acquire(alone: Bool = false) async -> Int {
        if waiting.isEmpty, let slot = take(alone: alone) { return slot }
        return await withCheckedContinuation { waiting.append((alone, $0)) }
    }

    func release(_ slot: Int) {
        if aloneIn == slot {
            aloneIn = nil
            free = Set(0..<guests)
        } else {
            free.insert(slot)
        }
        while let next = waiting.first, let slot = take(alone: next.alone) {
            waiting.removeFirst()
            next.continuation.resume(returning: slot)
        }
    }

    /// How many worlds wait for a guest.
    var waitingCount: Int { waiting.count }

    /// The lowest free guest, if the asker may have it now: when alone, only with every guest free, all then held.
    private func take(alone: Bool) -> Int? {
        guard let slot = free.min(), !alone || free.count == guests else { return nil }
        if alone {
            aloneIn = slot
            free = []
        } else {
            free.remove(slot)
        }
        return slot
    }
}
