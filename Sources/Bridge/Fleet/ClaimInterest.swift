/// Which of the other gateways' claims this gateway listens to. Its arbiters rank it only against the claims of
/// the devices it hears, so it subscribes to those one by one (`gatt2mqtt/+/claim/<family>/<id>`) and the broker
/// sends each claim to the device's hearers alone: the fleet's traffic then grows with its devices, not with devices
/// × gateways. Only the gateway that answers for devices nobody owns (the first by name) needs every claim, to know
/// which devices have an owner; it subscribes to all of them instead. Pure bookkeeping: `ClaimSubscriptions` carries
/// out the changes.
struct ClaimInterest {
    /// What one subscription covers.
    enum Filter: Hashable, Comparable {
        /// One device's claims, by its key (`<family>/<id>`).
        case device(String)
        /// Every claim of the fleet.
        case wholeFleet
    }

    /// What a turn changes: subscriptions to make (before those to drop, so no claim falls between the two), and the
    /// devices whose claims stopped coming, whose arbiters must go (their history would be stale when they come back).
    struct Change: Equatable {
        var subscribe: [Filter] = []
        var unsubscribe: [Filter] = []
        var forget: [String] = []
        /// The whole fleet's claims stopped coming: every arbiter of a device not listened to must go.
        var forgetUnheard = false
    }

    /// How long a device no longer heard stays subscribed: a lease, so that a scan round without it loses nothing.
    let linger: Duration
    /// At most this many devices are subscribed to one by one (claims and advertisements must not grow the broker's
    /// subscriptions without bound); a device beyond them is not arbitrated, so this gateway never takes it.
    let limit: Int

    /// The devices listened to one by one: since when (the turn each was first heard) and when last heard.
    private var heard: [String: (since: ContinuousClock.Instant, last: ContinuousClock.Instant)] = [:]
    private var subscribed: Set<Filter> = []
    private var wholeFleetSince: ContinuousClock.Instant?

    init(linger: Duration, limit: Int) {
        self.linger = linger
        self.limit = limit
    }

    /// One turn of the fleet: `heard` are the devices this gateway hears now, `owned` says which it owns (kept however
    /// long they are unheard), and `wholeFleet` whether it answers for devices nobody owns.
    mutating func turn(
        heard heardNow: some Sequence<String>, owned: (String) -> Bool, wholeFleet: Bool,
        at now: ContinuousClock.Instant
    ) -> Change {
        var change = Change()
        for key in heardNow where heard[key] != nil || heard.count < limit {
            heard[key] = (since: heard[key]?.since ?? now, last: now)
        }
        for (key, times) in heard where now - times.last >= linger && !owned(key) {
            heard[key] = nil
            // With the whole fleet's claims coming, the arbiter stays current.
            if !wholeFleet { change.forget.append(key) }
        }
        change.forget.sort()
        if wholeFleet {
            wholeFleetSince = wholeFleetSince ?? now
        } else {
            change.forgetUnheard = wholeFleetSince != nil
            wholeFleetSince = nil
        }
        let wanted: Set<Filter> = wholeFleet ? [.wholeFleet] : Set(heard.keys.map(Filter.device))
        change.subscribe = wanted.subtracting(subscribed).sorted()
        change.unsubscribe = subscribed.subtracting(wanted).sorted()
        subscribed = wanted
        return change
    }

    /// Whether this gateway listens to `key`'s claims, so that its arbiter may decide.
    func listens(to key: String) -> Bool { subscribed.contains(.wholeFleet) || heard[key] != nil }

    /// Whether the owners' claims on `key` have had time to come in: this gateway has listened to them, as a device
    /// it hears or with every claim, for `period`. Before that, a device without a known owner may still have one: a
    /// device just heard is subscribed to, but its owner's next claim is up to a refresh away.
    func knowsClaims(on key: String, for period: Duration, at now: ContinuousClock.Instant) -> Bool {
        knowsWholeFleet(for: period, at: now) || heard[key].map { now - $0.since >= period } ?? false
    }

    /// The devices listened to one by one.
    var devices: Set<String> { Set(heard.keys) }

    /// Whether every owner's claim has come in: the whole fleet's claims have been coming for `period` (a refresh and
    /// a half brings each owner's).
    func knowsWholeFleet(for period: Duration, at now: ContinuousClock.Instant) -> Bool {
        wholeFleetSince.map { now - $0 >= period } ?? false
    }
}
