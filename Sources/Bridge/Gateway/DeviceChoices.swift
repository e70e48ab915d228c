/// What the device policy remembers beyond BlueZ and the sessions: the users' choices (`connect` and
/// `disconnect` requests), the family each address was recognised as, and when each address was first seen
/// (the adapters' reports settle before a device is placed). Keyed by advertising address: anyone in radio
/// range can fill it, so it is bounded (`forgetStrangers`).
struct DeviceChoices: Sendable {
    /// Addresses a `connect` request asked for (and the family it named).
    var requested: [String: DeviceFamily?] = [:]
    /// The family each device was first recognised as, by address. A device keeps it when its
    /// name changes: on connecting, bluetoothd reads the GAP Device Name, which a BlueZ-based
    /// peripheral serves as its host's name ("BlueZ 5.66"), and a CPR band can be renamed.
    var recognised: [String: DeviceFamily] = [:]
    /// Addresses a `disconnect` request took down: not reconnected until asked.
    var released: Set<String> = []
    /// Addresses a `forget` request is removing from BlueZ: until their objects (and bonds) are gone, a sighting
    /// must not start a session for them again (a grip is still bonded then, and its bond would bring it back).
    var forgetting: Set<String> = []
    /// When each address was first seen, and the addresses whose adapter choice waits for the other
    /// adapters' reports (see `DeviceSessions.candidates`).
    var firstSeen: [String: ContinuousClock.Instant] = [:]
    var settling: Set<String> = []

    /// The family `address` is served as, when one is known: the one a `connect` request named, else the one it was
    /// first recognised as.
    func family(of address: String) -> DeviceFamily? {
        (requested[address] ?? nil) ?? recognised[address]
    }

    /// At most this many addresses are remembered per table keyed by what advertises (`recognised`, `firstSeen`):
    /// anyone in radio range can advertise a family's name from any number of addresses.
    static let strangerLimit = 1024

    /// Makes room in the tables keyed by advertising addresses once they hold `strangerLimit`: addresses with no
    /// session and no wait for a slot (`held`, from the `SessionTable`), no `connect` request and no `disconnect`
    /// are forgotten (they are learnt again if they come back).
    mutating func forgetStrangers(held: Set<String>) {
        guard recognised.count >= Self.strangerLimit || firstSeen.count >= Self.strangerLimit else { return }
        let kept = held.union(requested.keys).union(released).union(settling).union(forgetting)
        recognised = recognised.filter { kept.contains($0.key) }
        firstSeen = firstSeen.filter { kept.contains($0.key) }
    }
}
