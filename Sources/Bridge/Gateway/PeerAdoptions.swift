/// The adoption lists of the fleet's other gateways, held apart from this gateway's own (`AdoptionList`): a device
/// another gateway adopted counts here too, so that this gateway may take it over, but it takes none of this gateway's
/// places, and it stops counting as soon as that gateway's list drops it or is cleared. Only members have a list here:
/// gateways this one has seen in the fleet (`FleetCoordinator.isMember`); a list under a name nobody runs is never
/// even subscribed to. Bounded, since without the broker ACL anyone may act a member: `memberLimit` members, and
/// `perGatewayLimit` devices of each list. Pure bookkeeping: `Adoptions` subscribes, logs and acts on the changes.
struct PeerAdoptions: Sendable {
    /// The most gateways whose lists are followed: more than a fleet has (the fleet benchmark runs 50).
    static let memberLimit = 64
    /// The most devices of one gateway's list that count here: a quarter of a gateway's own places. Not the adapter
    /// slots: a gateway adopts more devices than it holds at once (a gym's bands wait for a slot in turn), and every
    /// one of them must count here for this gateway to take them over.
    static let perGatewayLimit = AdoptionList.limit / 4

    /// Each member's list, empty until its retained list arrives.
    private var lists: [String: AdoptionList] = [:]

    enum Admission: Equatable {
        case admitted
        /// A member already.
        case member
        /// `memberLimit` gateways are followed already.
        case full
    }

    /// Makes `gateway` a member: its list is followed from now on.
    mutating func admit(_ gateway: String) -> Admission {
        if lists[gateway] != nil { return .member }
        guard lists.count < Self.memberLimit else { return .full }
        lists[gateway] = AdoptionList()
        return .admitted
    }

    func isMember(_ gateway: String) -> Bool { lists[gateway] != nil }

    var members: [String] { lists.keys.sorted() }

    /// How many devices `gateway`'s list holds here (for tests of the bound).
    func count(of gateway: String) -> Int { lists[gateway]?.count ?? 0 }

    /// What a member's new list changed here.
    struct Change: Equatable {
        /// Devices that count here now and did not through any member's list before, with their families.
        var counted: [Entry] = []
        /// Devices that counted here through that list only, and no longer do.
        var uncounted: [String] = []
        /// How many entries of the list were beyond `perGatewayLimit`, and left out.
        var leftOut = 0
    }

    struct Entry: Equatable {
        var address: String
        var family: DeviceFamily
    }

    /// `list` is `gateway`'s now: the first `perGatewayLimit` of its devices by address (the order it publishes them
    /// in) count. Nothing for a gateway that is no member.
    mutating func replace(_ gateway: String, with list: AdoptionList) -> Change {
        guard let before = lists[gateway] else { return Change() }
        var bounded = AdoptionList()
        for (address, family) in list.families.sorted(by: { $0.key < $1.key }).prefix(Self.perGatewayLimit) {
            bounded.adopt(address, as: family)
        }
        lists[gateway] = bounded
        var change = Change(leftOut: list.count - bounded.count)
        for (address, family) in bounded.families.sorted(by: { $0.key < $1.key })
        where !before.contains(address) && !listedByOthers(address, than: gateway) {
            change.counted.append(Entry(address: address, family: family))
        }
        change.uncounted = before.addresses.subtracting(bounded.addresses).filter {
            !listedByOthers($0, than: gateway)
        }.sorted()
        return change
    }

    /// `gateway` left the fleet for good (its retained status was cleared): it is no member any more, and what its list
    /// held stops counting here.
    mutating func retire(_ gateway: String) -> Change {
        guard let before = lists.removeValue(forKey: gateway) else { return Change() }
        return Change(uncounted: before.addresses.filter { adopter(of: $0) == nil }.sorted())
    }

    /// The first member by name whose list holds `address`, if any.
    func adopter(of address: String) -> String? {
        lists.filter { $0.value.contains(address) }.keys.min()
    }

    private func listedByOthers(_ address: String, than gateway: String) -> Bool {
        lists.contains { $0.key != gateway && $0.value.contains(address) }
    }
}
