/// Decides, for one gateway ("me") and one device, whether this gateway owns the device: the one
/// gateway of the fleet that connects it. Every gateway runs the same rules over the claims it
/// receives; there is no central node and no shared clock. The arbiter does no I/O and reads no
/// clock: the caller feeds it observations, received claims and instants, and publishes the
/// claim it returns.
///
/// The rules, with the defaults of `OwnershipPolicy.standard` in brackets:
///
/// 1. Leases. Another gateway's claim counts ("is live") from its arrival until arrival + lease
///    [30 s = 3 refresh intervals], on this gateway's own monotonic clock. A claim that is not
///    newer by (incarnation, sequence) than the last one from the same gateway is dropped. A
///    dead gateway (SIGKILL, or its broker died so its will never came) simply stops counting.
///    A gateway whose will arrives (`peerLeft`) stops counting at once, and if it owned the
///    device the settle period is already over: its claims are gone for certain, not late, and
///    the survivors' own claims have been in view all along.
/// 2. Terms. Every claim accepted (newer than the last from its gateway; also this gateway's own
///    from a previous life) raises the highest term seen; a new owner takes term = highest term
///    seen + 1, and a candidate publishes the highest term it has seen, so terms do not go
///    backwards. A stale claim raises nothing. Terms stop at the largest the claim codec carries
///    (`ClaimCodec.maximumCounter`): a forged claim at that term cannot push the next owner's past
///    what every peer can read; owners at equal terms are ordered by name (rule 7), so there is
///    still one owner.
/// 3. Startup. For one lease after it starts, or after its broker session comes back, a gateway
///    counts every device as owned by someone it has not heard from yet: any live owner
///    refreshes within a lease. Its ownerless time (rule 5) starts only then, so a restarted
///    gateway waits lease + settle [45 s] before it takes anything and does not steal a device
///    from an owner whose claims are slow to arrive. Without a broker session it takes nothing:
///    it could not announce the device.
/// 4. An owner stays owner. While a live owner claim from another gateway is in view, a
///    candidate never takes the device, however much stronger it is.
/// 5. Taking an ownerless device. When no live owner has been in view for the settle period
///    [15 s], a gateway takes the device (term as in rule 2, then connects) only if it is
///    eligible, both now and in the claim it last published (hears the device and has a free
///    slot), and ranks first among the eligible live claims and its own (`CandidateRanking`:
///    candidates before gateways that just released, then stronger RSSI, then smaller name).
///    A gateway with no free slot or no RSSI never takes ownership.
/// 6. Hand-over, decided by the owner. When a live candidate with a free slot has been stronger
///    than the owner by more than the hysteresis [16 dB] for the whole challenge period [60 s],
///    and the owner has held the device for the minimum dwell [60 s], the owner releases: it
///    disconnects, and once its link is down it publishes `released` with its term. Then rule 5
///    runs at the candidates. The gateway the owner took the device over from (the released
///    claim with the highest term when it took it) needs hysteresis + deadband [16 + 6 dB] to
///    win it back. An owner that does not know its own RSSI hands nothing over.
/// 7. Conflicts. An owner that sees a live owner claim that prevails (`OwnerPrecedence`: higher
///    term, or same term and smaller name) disconnects and releases at once. An owner ignores
///    owners it prevails over: they see it too and release themselves.
/// 8. Link grace. An owner whose link is down (it dropped, or has not come up since taking the
///    device) keeps the device and keeps reconnecting for the link grace [30 s], then releases.
/// 9. A gateway that released becomes a candidate again once another live owner is in view.
///
/// Alone. While no other gateway is online (`LocalObservation.alone`: the caller knows every gateway's
/// retained `status`), the gateway takes a device it wants and has a slot for at once, with no listening, no
/// settle and no link grace: it behaves as a gateway without a fleet, and owns what it serves under a term,
/// so a gateway that comes online later finds the device owned (rules 3 and 4) instead of fighting for it.
/// It keeps what it owns (the caller's own policy decides whether it reconnects).
///
/// Published state: `owner` from taking the device until its link is closed after a release
/// (so nobody connects while the old link may still hold the device), then `released`, then
/// `candidate` per rule 9. The link action is recomputed at every decision: connect when owner
/// with the link down, disconnect when not owner (or releasing) with the link up.
public struct OwnershipArbiter: Sendable {
    private enum Phase: Hashable, Sendable {
        case candidate
        case owner
        /// Decided to release; waiting for the link to close before saying so.
        case releasing
        case released
    }

    /// This gateway's name.
    public let gateway: String
    /// The device key.
    public let device: String
    /// This gateway's incarnation, bumped by the caller at each start.
    public let incarnation: UInt64
    /// The rules' numbers; the same on every gateway.
    public let policy: OwnershipPolicy

    private var peers = PeerClaimTable()
    private var observation = LocalObservation(rssi: nil, freeSlots: 0, linkUp: false)
    private var phase = Phase.candidate
    /// The term this gateway owns or last owned the device under.
    private var ownTerm: UInt64 = 0
    private var highestTermSeen: UInt64 = 0
    private var ownerSince: FleetInstant?
    private var linkDownSince: FleetInstant?
    private var ownerlessSince: FleetInstant?
    /// For each candidate stronger than this owner by more than its threshold: since when.
    private var challengers: [String: FleetInstant] = [:]
    /// The gateway this owner took the device over from, which needs the deadband to win it back.
    private var predecessor: String?
    private var lastPublished: Claim?
    /// Since when claims flow both ways: the start, or the latest return of the broker session.
    private var listeningSince: FleetInstant?

    /// Creates the arbiter of `gateway` for `device` when this gateway starts (or starts caring
    /// about the device) at `startedAt`.
    public init(
        gateway: String,
        device: String,
        incarnation: UInt64,
        policy: OwnershipPolicy = .standard,
        startedAt: FleetInstant
    ) {
        self.gateway = gateway
        self.device = device
        self.incarnation = incarnation
        self.policy = policy
        listeningSince = startedAt
    }

    /// The state this gateway publishes.
    public var state: ClaimState {
        switch phase {
        case .candidate: .candidate
        case .owner, .releasing: .owner
        case .released: .released
        }
    }

    /// The term this gateway publishes: its own term while it owns or has just released the
    /// device, otherwise the highest term it has seen.
    public var term: UInt64 {
        phase == .candidate ? highestTermSeen : ownTerm
    }

    /// True while this gateway listens before it may take anything (rule 3): after its start, and after its broker
    /// session came back, for a lease. Once it is over, the live owner claims have all been heard.
    public func isListening(at now: FleetInstant) -> Bool {
        guard let listeningSince else { return true }
        return now < listeningSince + policy.lease
    }

    /// True from taking the device until the release is decided: the caller should hold the link.
    public var isOwner: Bool {
        phase == .owner
    }

    /// The other gateways whose live claims say they own the device (normally none or one).
    public func otherOwners(at now: FleetInstant) -> [String] {
        peers.live(at: now, lease: policy.lease).filter { $0.state == .owner }.map(\.gateway).sorted()
    }

    /// The other gateways' claims still within their lease.
    public func otherClaims(at now: FleetInstant) -> [Claim] {
        peers.live(at: now, lease: policy.lease)
    }

    /// Records what this gateway currently sees of the device; takes effect at the next `decide`.
    public mutating func observe(_ observation: LocalObservation) {
        self.observation = observation
    }

    /// Records a claim received for this device at `instant` on this gateway's clock.
    @discardableResult
    public mutating func receive(_ claim: Claim, at instant: FleetInstant) -> ClaimReceipt {
        guard claim.device == device else { return .otherDevice }
        let term = min(claim.term, ClaimCodec.maximumCounter)
        guard claim.gateway != gateway else {
            highestTermSeen = max(highestTermSeen, term)
            return .fromThisGateway
        }
        guard peers.record(claim, at: instant, memory: policy.claimMemory) else { return .stale }
        highestTermSeen = max(highestTermSeen, term)
        return .accepted
    }

    /// Another gateway's will arrived at `instant` (its `status` went `offline`): it is gone now, not a
    /// lease from now. If it owned the device, the survivors may take it at once.
    public mutating func peerLeft(_ other: String, at instant: FleetInstant) {
        guard other != gateway, let claim = peers.expire(other, at: instant, lease: policy.lease) else { return }
        guard claim.state == .owner, let listeningSince, instant >= listeningSince + policy.lease else { return }
        ownerlessSince = instant - policy.settle
    }

    /// Applies the rules at `now` and returns what to publish and what to do with the link. Call
    /// it after each observation or received claim, and at least every second or so, because
    /// leases and timers run out without any input.
    public mutating func decide(at now: FleetInstant) -> OwnershipDecision {
        if !observation.brokerConnected {
            // What this gateway knows goes stale; after the session returns it listens a lease again.
            listeningSince = nil
            ownerlessSince = nil
        } else if listeningSince == nil {
            listeningSince = now
        }
        let live = peers.live(at: now, lease: policy.lease)
        var change: OwnershipChange?
        switch phase {
        case _ where observation.alone:
            change = decideAlone(at: now)
        case .owner:
            change = decideAsOwner(at: now, live: live)
        case .releasing:
            if !observation.linkUp {
                phase = .released
                change = .releaseCompleted
            }
        case .candidate, .released:
            change = decideWithoutDevice(at: now, live: live)
        }
        return OwnershipDecision(
            state: state,
            term: term,
            action: linkAction,
            publishNow: mustPublishNow,
            change: change
        )
    }

    /// The claim to publish now under `sequence` (the caller's per-incarnation counter). The
    /// arbiter remembers it: when ranking itself it uses what it published, the same numbers the
    /// other gateways rank it by, so that all of them pick the same first candidate.
    public mutating func nextClaim(sequence: UInt64) -> Claim {
        let claim = Claim(
            gateway: gateway,
            device: device,
            incarnation: incarnation,
            sequence: sequence,
            term: term,
            state: state,
            rssi: observation.rssi,
            freeSlots: observation.freeSlots
        )
        lastPublished = claim
        return claim
    }

    // MARK: - Rules

    private mutating func decideAlone(at now: FleetInstant) -> OwnershipChange? {
        switch phase {
        case .owner:
            // Kept for the rules that apply once another gateway comes online: a link down since long ago ends then.
            linkDownSince = observation.linkUp ? nil : (linkDownSince ?? now)
            return nil
        case .releasing:
            guard !observation.linkUp else { return nil }
            phase = .released
            return .releaseCompleted
        case .candidate, .released:
            guard observation.freeSlots > 0 else { return nil }
            take(at: now, live: [])
            return .tookOwnership(term: ownTerm)
        }
    }

    private mutating func decideAsOwner(at now: FleetInstant, live: [Claim]) -> OwnershipChange? {
        if let winner = live.first(where: {
            $0.state == .owner && OwnerPrecedence.prevails(term: $0.term, gateway: $0.gateway, over: ownTerm, gateway)
        }) {
            release()
            return .lostConflict(to: winner.gateway)
        }
        if observation.linkUp {
            linkDownSince = nil
        } else {
            let since = linkDownSince ?? now
            linkDownSince = since
            if now - since >= policy.linkGrace {
                release()
                return .linkLost
            }
        }
        if let challenger = challengerDue(at: now, live: live) {
            release()
            return .handedOver(to: challenger)
        }
        return nil
    }

    /// Tracks which candidates are stronger by more than their threshold, and returns one that
    /// has been so for the challenge period once the dwell is over.
    private mutating func challengerDue(at now: FleetInstant, live: [Claim]) -> String? {
        guard let mine = observation.rssi else {
            challengers.removeAll()
            return nil
        }
        var stronger: [String: FleetInstant] = [:]
        for claim in live where claim.state == .candidate && claim.freeSlots > 0 {
            guard let theirs = claim.rssi else { continue }
            let threshold = policy.hysteresis + (claim.gateway == predecessor ? policy.winBackDeadband : 0)
            if theirs - mine > threshold {
                stronger[claim.gateway] = challengers[claim.gateway] ?? now
            }
        }
        challengers = stronger
        guard let ownerSince, now - ownerSince >= policy.minimumDwell else { return nil }
        return stronger.filter { now - $0.value >= policy.challengePeriod }.keys.min()
    }

    private mutating func decideWithoutDevice(at now: FleetInstant, live: [Claim]) -> OwnershipChange? {
        if live.contains(where: { $0.state == .owner }) {
            ownerlessSince = nil
            guard phase == .released else { return nil }
            phase = .candidate
            return .becameCandidate
        }
        guard let listeningSince else { return nil }
        let since = ownerlessSince ?? max(now, listeningSince + policy.lease)
        ownerlessSince = since
        guard now - since >= policy.settle, rankFirst(among: live) else {
            return nil
        }
        take(at: now, live: live)
        return .tookOwnership(term: ownTerm)
    }

    /// True when this gateway is eligible now and as last published, and ranks first.
    private func rankFirst(among live: [Claim]) -> Bool {
        guard observation.rssi != nil, observation.freeSlots > 0, var mine = lastPublished else { return false }
        mine.state = state
        guard CandidateRanking.isEligible(mine) else { return false }
        return CandidateRanking.first(among: live + [mine])?.gateway == gateway
    }

    private mutating func take(at now: FleetInstant, live: [Claim]) {
        let known = max(highestTermSeen, ownTerm)
        ownTerm = min(known, ClaimCodec.maximumCounter - 1) + 1
        highestTermSeen = ownTerm
        predecessor =
            live
            .filter { $0.state == .released }
            .max { ($0.term, $1.gateway) < ($1.term, $0.gateway) }?
            .gateway
        phase = .owner
        ownerSince = now
        linkDownSince = observation.linkUp ? nil : now
        ownerlessSince = nil
        challengers.removeAll()
    }

    private mutating func release() {
        phase = observation.linkUp ? .releasing : .released
        ownerSince = nil
        linkDownSince = nil
        challengers.removeAll()
        predecessor = nil
    }

    private var linkAction: LinkAction {
        switch (phase == .owner, observation.linkUp) {
        case (true, false): .connect
        case (false, true): .disconnect
        default: .none
        }
    }

    private var mustPublishNow: Bool {
        guard let lastPublished else { return true }
        let eligibleNow = observation.rssi != nil && observation.freeSlots > 0
        let eligibleThen = lastPublished.rssi != nil && lastPublished.freeSlots > 0
        return lastPublished.state != state || lastPublished.term != term || eligibleNow != eligibleThen
    }
}
