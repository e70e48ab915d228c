import Fleet
import Locks

/// This gateway's side of a fleet: an ownership arbiter per device (keyed `<family>/<id>`), the
/// gateways heard lately, and the claims due for publishing. Pure bookkeeping under one lock; the
/// bridge feeds it what it sees and carries out what it decides (`FleetService`).
///
/// A gateway that joins only when others are online (the default, `FleetOptions.joining`) is alone while no
/// other gateway's `status` is `online`: it then takes what it serves at once and publishes neither claims nor
/// heartbeats, as a gateway without a fleet would; the first other gateway online makes it publish its claims.
final class FleetCoordinator: Sendable {
    let gateway: String
    let incarnation: UInt64
    let policy: OwnershipPolicy
    let joining: FleetOptions.Joining
    private let started = ContinuousClock.now

    private struct State {
        var arbiters: [String: OwnershipArbiter] = [:]
        var smoothers: [String: SignalSmoother] = [:]
        var sequence: UInt64 = 0
        var lastPublished: [String: ContinuousClock.Instant] = [:]
        /// When each other gateway was last heard (a claim or a heartbeat), on this gateway's clock.
        var heard: [String: ContinuousClock.Instant] = [:]
        /// Each other gateway's latest `status` (`online` or not), and when it arrived.
        var statuses: [String: (online: Bool, at: ContinuousClock.Instant)] = [:]
        /// Whether the broker has delivered the retained statuses: this gateway's own came back through the
        /// subscription to every gateway's, and the others' retained ones come in the same burst.
        var statusesKnown = false
        var refusedClaims = 0
    }

    private let state = Mutex(State())

    init(gateway: String, incarnation: UInt64, options: FleetOptions) {
        self.gateway = gateway
        self.incarnation = incarnation
        joining = options.joining
        policy = OwnershipPolicy(refreshInterval: options.refreshInterval)
    }

    /// One device's turn: what the arbiter decided, and the claim to publish if one is due.
    struct Step: Sendable {
        var decision: OwnershipDecision
        var claim: Claim?
        /// Whether the gateway still listens after its start or a reconnect (its knowledge of owners may be stale).
        var listening: Bool
    }

    /// The gateway's place in the fleet now.
    enum Presence: Equatable {
        /// Other gateways may be online: claims and heartbeats go out, the rules apply in full.
        case inFleet
        /// No other gateway is online: nothing goes out, and what this gateway wants it takes at once.
        case alone
        /// The retained statuses have not arrived yet: nothing goes out and nothing is taken.
        case unknown
    }

    var presence: Presence {
        guard joining == .whenOthersOnline else { return .inFleet }
        let lease = policy.lease
        return state.withLock { state in
            guard state.statusesKnown else { return .unknown }
            return Self.othersOnline(state, lease: lease) ? .inFleet : .alone
        }
    }

    /// Whether another gateway counts as online: heard within a lease (a claim or a heartbeat), or its `status` is
    /// `online` and arrived within a lease. A gateway in a fleet sends heartbeats, so an `online` status with
    /// nothing heard for a lease after it is a stale one (a gateway whose broker died before its will was sent).
    private static func othersOnline(_ state: State, lease: Duration) -> Bool {
        let now = ContinuousClock.now
        return state.heard.values.contains { now - $0 < lease }
            || state.statuses.values.contains { $0.online && now - $0.at < lease }
    }

    /// Whether `other` is a member of the fleet by its rules: its latest `status` is `online`, and it has been heard (a
    /// heartbeat or a claim) within a lease. Both, as a gateway in a fleet says both: a retained `online` alone may be
    /// anyone's, or a gateway's that died with its broker. Its adoptions count here from then on (`Adoptions+Fleet`).
    func isMember(_ other: String) -> Bool {
        let lease = policy.lease
        return state.withLock { state in
            guard state.statuses[other]?.online == true, let heard = state.heard[other] else { return false }
            return ContinuousClock.now - heard < lease
        }
    }

    /// Whether `other` counts as online now, as `othersOnline` counts each gateway.
    func isOnline(_ other: String) -> Bool {
        let lease = policy.lease
        return state.withLock { state in
            let now = ContinuousClock.now
            return state.heard[other].map { now - $0 < lease } ?? false
                || state.statuses[other].map { $0.online && now - $0.at < lease } ?? false
        }
    }

    /// Another gateway's `status`; an `offline` one (its will, or its goodbye) is handled by `peerLeft` too.
    func status(of other: String, online: Bool) {
        guard other != gateway else { return }
        let lease = policy.lease
        state.withLock { Self.record((online, .now), for: other, in: &$0.statuses, lease: lease) { $0.at } }
    }

    /// Records `value` for `other` in one of the tables keyed by other gateways' names, which anyone may fill on a
    /// broker without the ACL recipe (claims, heartbeats, statuses): once the table holds as many names as the device
    /// table may, those that arrived more than a lease ago (which count for nothing) make room; if none, it is dropped.
    private static func record<Value>(
        _ value: Value, for other: String, in table: inout [String: Value], lease: Duration,
        arrival: (Value) -> ContinuousClock.Instant
    ) {
        if table[other] == nil, table.count >= deviceLimit {
            let now = ContinuousClock.now
            table = table.filter { now - arrival($0.value) < lease }
            guard table.count < deviceLimit else { return }
        }
        table[other] = value
    }

    /// How many other gateways the heard and status tables hold (for tests of their bounds).
    var strangerTableSizes: (heard: Int, statuses: Int) { state.withLock { ($0.heard.count, $0.statuses.count) } }

    /// This gateway's own retained `status` came back through the subscription to every gateway's.
    func ownStatusArrived() {
        state.withLock { $0.statusesKnown = true }
    }

    /// The own status did not come back in time (`FleetService.statusWait`): the broker does not let this gateway
    /// read the statuses or keeps no retained messages. It could not see another gateway either, so it stops
    /// waiting and is alone until one is heard; waiting on would leave every device unconnected for ever.
    func statusesUnavailable() {
        state.withLock { $0.statusesKnown = true }
    }

    /// A device's key in the fleet's rules and claims: `<family>/<id>`, as in its topics.
    static func key(_ family: DeviceFamily, _ id: String) -> String { "\(family.rawValue)/\(id)" }

    /// The arbiters' clock: time since this coordinator started.
    private var now: FleetInstant { .seconds(0) + (ContinuousClock.now - started) }

    private func arbiter(_ key: String, in state: inout State) -> OwnershipArbiter {
        state.arbiters[key]
            ?? OwnershipArbiter(
                gateway: gateway, device: key, incarnation: incarnation, policy: policy, startedAt: .seconds(0))
    }

    /// At most this many devices have an arbiter: claims name devices by topic, and strangers' topics must not
    /// grow the table without bound. Far more than a fleet serves (each gateway connects a few dozen at most).
    static let deviceLimit = 4096

    /// Whether `key` has or may have an arbiter: once the table holds `deviceLimit` devices, those this gateway neither
    /// owns nor hears claims of make room, with their smoothers and publishing times. Claims name devices by topic and
    /// sightings by advertisement, and neither may grow the tables without bound.
    private static func hasRoom(for key: String, in state: inout State, at now: FleetInstant) -> Bool {
        guard state.arbiters[key] == nil, state.arbiters.count >= deviceLimit else { return true }
        state.arbiters = state.arbiters.filter { $0.value.isOwner || !$0.value.otherClaims(at: now).isEmpty }
        state.smoothers = state.smoothers.filter { state.arbiters[$0.key] != nil }
        state.lastPublished = state.lastPublished.filter { state.arbiters[$0.key] != nil }
        return state.arbiters.count < deviceLimit
    }

    /// How many devices the fleet's per-device tables hold (for tests of their bounds).
    var deviceTableSizes: (arbiters: Int, smoothers: Int, lastPublished: Int) {
        state.withLock { ($0.arbiters.count, $0.smoothers.count, $0.lastPublished.count) }
    }

    /// Another gateway's claim; false when it was dropped because the table of devices is full.
    @discardableResult
    func receive(_ claim: Claim) -> Bool {
        guard claim.gateway != gateway else { return true }
        let now = now
        let lease = policy.lease
        return state.withLock { state in
            // If no device makes room, the claim is dropped.
            guard Self.hasRoom(for: claim.device, in: &state, at: now) else { return false }
            var arbiter = arbiter(claim.device, in: &state)
            _ = arbiter.receive(claim, at: now)
            state.arbiters[claim.device] = arbiter
            Self.record(.now, for: claim.gateway, in: &state.heard, lease: lease) { $0 }
            return true
        }
    }

    /// Claims dropped (malformed, or naming another gateway than their topic), for the health report.
    var refusedClaims: Int { state.withLock { $0.refusedClaims } }

    func refuseClaim() { state.withLock { $0.refusedClaims += 1 } }

    /// Another gateway's will arrived (its `status` is `offline`): its claims stop counting now, and the devices
    /// it owned may be taken at once (`OwnershipArbiter.peerLeft`).
    func peerLeft(_ other: String) {
        guard other != gateway else { return }
        let now = now
        state.withLock { state in
            state.heard[other] = nil
            for key in state.arbiters.keys { state.arbiters[key]?.peerLeft(other, at: now) }
        }
    }

    /// Drops what this gateway knows of devices whose claims it no longer listens to (`ClaimInterest`), unless it
    /// owns them: heard again, their arbiters start afresh and wait for the owners' claims as a new device's do.
    func forget(_ keys: some Sequence<String>) {
        state.withLock { state in
            for key in keys where !(state.arbiters[key]?.isOwner ?? false) { Self.drop(key, from: &state) }
        }
    }

    /// Drops every device not in `kept` and not owned: the whole fleet's claims stopped coming.
    func forgetAll(except kept: Set<String>) {
        state.withLock { state in
            for (key, arbiter) in state.arbiters where !kept.contains(key) && !arbiter.isOwner {
                Self.drop(key, from: &state)
            }
        }
    }

    private static func drop(_ key: String, from state: inout State) {
        state.arbiters[key] = nil
        state.smoothers[key] = nil
        state.lastPublished[key] = nil
    }

    /// Another gateway's heartbeat.
    func heard(_ other: String) {
        guard other != gateway else { return }
        let lease = policy.lease
        state.withLock { Self.record(.now, for: other, in: &$0.heard, lease: lease) { $0 } }
    }

    /// Feeds the device's observation (its raw RSSI is smoothed here) and decides.
    func step(_ key: String, rssi: Int?, freeSlots: Int, linkUp: Bool, brokerConnected: Bool) -> Step {
        let now = now
        let refresh = policy.refreshInterval
        let presence = presence
        return state.withLock { state in
            // A device seen while the tables are full of devices owned or claimed is decided without being remembered.
            let remembered = Self.hasRoom(for: key, in: &state, at: now)
            var smoothed: Int?
            if let rssi {
                smoothed = state.smoothers[key, default: SignalSmoother()].add(rssi)
            } else {
                state.smoothers[key] = nil
            }
            var arbiter = arbiter(key, in: &state)
            arbiter.observe(
                LocalObservation(
                    rssi: smoothed, freeSlots: freeSlots, linkUp: linkUp, brokerConnected: brokerConnected,
                    alone: presence == .alone))
            let decision = arbiter.decide(at: now)
            var claim: Claim?
            if presence != .inFleet {
                // Nobody to tell: the first claim goes out as soon as another gateway comes online.
                state.lastPublished[key] = nil
            } else if decision.publishNow
                || state.lastPublished[key].map({ ContinuousClock.now - $0 >= refresh }) ?? true
            {
                state.sequence += 1
                claim = arbiter.nextClaim(sequence: state.sequence)
                state.lastPublished[key] = .now
            }
            if remembered {
                state.arbiters[key] = arbiter
            } else {
                state.smoothers[key] = nil
                state.lastPublished[key] = nil
            }
            return Step(decision: decision, claim: claim, listening: presence != .alone && arbiter.isListening(at: now))
        }
    }

    func isOwner(_ key: String) -> Bool { state.withLock { $0.arbiters[key]?.isOwner ?? false } }

    /// Whether this gateway may connect the device now: it owns it, or it is alone (its next step takes it).
    func mayConnect(_ key: String) -> Bool { presence == .alone || isOwner(key) }

    /// Another gateway that owns the device, as far as this one has heard.
    func otherOwner(_ key: String) -> String? {
        let now = now
        return state.withLock { $0.arbiters[key]?.otherOwners(at: now).first }
    }

    /// Whether this gateway answers for a device nobody owns: the first by name of the gateways heard
    /// within a lease, so that exactly one `not_connected` reply goes out fleet-wide.
    func answersForUnowned() -> Bool {
        let lease = policy.lease
        return state.withLock { state in
            let live = state.heard.filter { ContinuousClock.now - $0.value < lease }.keys
            return live.allSatisfy { gateway < $0 }
        }
    }
}
