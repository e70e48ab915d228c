/// Who owned which device, replayed from what the observer saw: the fleet's claims (the latest from each gateway
/// for each device says whether that gateway owns it) and the gateways' statuses (a will, `offline`, ends all the
/// claims of its gateway before it, as every gateway's `peerLeft` does). A lease that runs out without a will is
/// not replayed: every gateway here either refreshes its claims or leaves with a will.
struct OwnershipLedger: Sendable {
    /// One message of the fleet, as the observer saw it (`at` in seconds on the observer's clock).
    struct Event: Sendable, Equatable {
        enum What: Sendable, Equatable {
            /// `gateway` said `owner` (true) or `candidate`/`released` (false) for `device`.
            case claim(device: String, owner: Bool)
            /// `gateway`'s status: `online` (true) or `offline` (false, its will or its goodbye).
            case status(online: Bool)
        }

        var at: Double
        var gateway: String
        var what: What
    }

    /// The events, in the order they arrived.
    private(set) var events: [Event]

    init(_ events: [Event]) { self.events = events.sorted { $0.at < $1.at } }

    /// Each device's owners after every event up to `time`.
    func owners(at time: Double) -> [String: Set<String>] {
        var owners: [String: Set<String>] = [:]
        for event in events where event.at <= time { Self.apply(event, to: &owners) }
        return owners
    }

    private static func apply(_ event: Event, to owners: inout [String: Set<String>]) {
        switch event.what {
        case .claim(let device, true): owners[device, default: []].insert(event.gateway)
        case .claim(let device, false): owners[device]?.remove(event.gateway)
        case .status(online: false):
            for device in owners.keys { owners[device]?.remove(event.gateway) }
        case .status(online: true): break
        }
    }

    /// The first time at or after `from` at which each of `devices` devices has exactly one owner; nil if never.
    /// Replayed event by event, keeping how many devices have one owner so that it stays linear.
    func firstTimeOneOwnerEach(devices: Int, from: Double) -> Double? {
        var owners: [String: Set<String>] = [:]
        var single = 0
        for event in events {
            let touched: [String]
            switch event.what {
            case .claim(let device, _): touched = [device]
            case .status(online: false): touched = owners.filter { $0.value.contains(event.gateway) }.map(\.key)
            case .status(online: true): touched = []
            }
            for device in touched where owners[device]?.count == 1 { single -= 1 }
            Self.apply(event, to: &owners)
            for device in touched where owners[device]?.count == 1 { single += 1 }
            if event.at >= from, single == devices { return event.at }
        }
        return nil
    }

    /// After `gateway` was killed at `killedAt`: for each device it owned then, how long after `since` another gateway
    /// said `owner` (nil for a device nobody took before the events end). `since` is the kill or the will's arrival.
    func takeovers(of gateway: String, killedAt: Double, since: Double) -> [String: Double?] {
        let held = owners(at: killedAt).filter { $0.value.contains(gateway) }.map(\.key)
        var taken: [String: Double?] = Dictionary(uniqueKeysWithValues: held.map { ($0, nil) })
        for event in events where event.at > killedAt && event.gateway != gateway {
            guard case .claim(let device, true) = event.what, let entry = taken[device], entry == nil else { continue }
            taken[device] = event.at - since
        }
        return taken
    }

    /// When `gateway`'s will (`offline`) arrived after `time`; nil if it did not.
    func will(of gateway: String, after time: Double) -> Double? {
        events.first { $0.at >= time && $0.gateway == gateway && $0.what == .status(online: false) }?.at
    }
}
