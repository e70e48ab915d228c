import Fleet
import TestSupport

/// What a simulation run found. Properties are checked from `settledAt` on: by then the network
/// has been quiet (no kills, no loss, no partitions, no failed connects) for the settle window.
struct FleetSimulationReport: Sendable {
    var scenario: FleetScenario
    /// Broken properties, each with the simulated time; empty when all held.
    var violations: [String] = []
    /// Times a device's owner became a different gateway after settling.
    var ownerChangesAfterSettle = 0
    /// When each of those changes happened, in seconds after settling.
    var ownerChangeSeconds: [Int64] = []
    /// Device-hours observed after settling.
    var deviceHours = 0.0
    /// Longest time after settling that a device that must be owned had no owner with a link up.
    var longestOwnerlessNanoseconds: Int64 = 0
    /// How the rules were exercised over the whole run (chaos included).
    var counts: [String: Int] = [:]
    /// Seconds from the end of chaos to the last role change before settling: how long the
    /// fleet took to calm down, to compare with the settle window.
    var calmedAfterSeconds: Int64 = 0
    /// Role changes after the chaos ended (at most 40), to explain a failure.
    var changesAfterChaos: [String] = []
    /// Gateways running when the run ended.
    var gatewaysAlive = 0
}

/// What can happen in the simulated fleet.
enum SimulationEvent {
    case deliver(to: Int, device: Int, claim: Claim)
    case linkSettled(gateway: Int, device: Int, token: UInt64, up: Bool)
    case sample(gateway: Int, incarnation: UInt64)
    case refresh(gateway: Int, incarnation: UInt64)
    case kill(gateway: Int)
    case restart(gateway: Int)
    case dropLink(gateway: Int, device: Int)
    case partition
    case brokerLost(gateway: Int)
    case brokerBack(gateway: Int)
    case heal
    /// A claim nobody's arbiter made: any gateway's name (a stranger's too), any numbers the codec carries.
    case forge
    /// A claim sent before, sent again (a broker's or a bridge's replay, or an attacker's).
    case replay
    case quiet
    case check
}

/// A discrete-event simulation of a fleet of gateways running `OwnershipArbiter`, each claim
/// going through `ClaimCodec` and a lossy, delaying, reordering network. A device accepts any
/// number of connections, so that two owners show up as two links instead of hiding behind it.
///
/// Checked over the whole run: every claim survives the codec unchanged; no gateway takes a device
/// without RSSI or a free slot. Checked from the settle time on:
/// - safety: never two gateways in state `owner`, never two links up, for any device;
/// - liveness: a device that some live gateway always has room for is never without an owner
///   holding a link for more than `ownerlessBound` (counted from one bound before the settle time);
/// - no flapping: a device only ever moves to a gateway with a stronger mean RSSI;
/// - stability: a device moves not at all when no live gateway's mean beats its owner's by more
///   than the scenario's `stableMargin`;
/// - no conflict is lost and no link grace runs out.
struct FleetSimulation {
    private enum Link {
        case down, connecting, up, disconnecting
    }

    private struct Gateway {
        var name: String
        var alive = false
        /// Killed during chaos and never restarted.
        var isGone = false
        /// False while the gateway's broker (or its session to it) is down: nothing in, nothing out.
        var brokerUp = true
        var incarnation: UInt64 = 0
        var sequence: UInt64 = 0
        var group = 0
        var arbiters: [OwnershipArbiter] = []
        var smoothers: [SignalSmoother] = []
    }

    private static let second: Int64 = 1_000_000_000
    private static let sampleInterval: Int64 = second

    let scenario: FleetScenario
    private var random: SplitMix64
    private var queue = EventQueue()
    private var gateways: [Gateway]
    // Per gateway and device; kept outside `Gateway` because debug builds copy a whole struct to
    // read one element of a nested array.
    private var links: [[Link]]
    /// Bumped at every link change, so a stale link event is recognised and ignored.
    private var linkTokens: [[UInt64]]
    /// The state each arbiter published at its last decision.
    private var states: [[ClaimState]]
    private var heldSlots: [Int?]
    /// Whether each device must end up owned, fixed once the network is quiet.
    private var feasible: [Bool]?
    /// The last claim each gateway published for each device, as a broker would retain it.
    private var retained: [[Claim?]]
    /// Claims published during the chaos, for replays (the latest 256).
    private var sent: [Claim] = []
    private let deviceKeys: [String]
    private var now: Int64 = 0
    private var isQuiet = false
    private let quietAt: Int64
    private let settledAt: Int64
    private let endAt: Int64
    private let refresh: Int64
    /// A hand-over or failover must finish within this: the old owner's link closes, its release
    /// crosses the network (up to two refresh intervals), the settle period runs, rankings agree
    /// within another refresh, the new link comes up (3 s) and a sample tick passes.
    private let ownerlessBound: Int64
    private var report: FleetSimulationReport
    private var lastOwner: [Int?]
    private var ownerAtSettle: [Int?]
    private var changesAfterSettle: [Int]
    private var ownerlessSince: [Int64?]
    private var linkedBefore: [Int]

    init(_ scenario: FleetScenario) {
        self.scenario = scenario
        random = SplitMix64(seed: scenario.seed ^ 0xF1EE_7000)
        gateways = (0..<scenario.gatewayCount).map { Gateway(name: "gw-\($0)") }
        links = Array(repeating: [], count: scenario.gatewayCount)
        linkTokens = Array(repeating: [], count: scenario.gatewayCount)
        states = Array(repeating: [], count: scenario.gatewayCount)
        heldSlots = Array(repeating: nil, count: scenario.gatewayCount)
        retained = Array(repeating: Array(repeating: nil, count: scenario.deviceCount), count: scenario.gatewayCount)
        deviceKeys = (0..<scenario.deviceCount).map { "belt/aabbccddee\(10 + $0)" }
        quietAt = scenario.chaosSeconds * Self.second
        settledAt = quietAt + scenario.settleSeconds * Self.second
        endAt = settledAt + scenario.measureSeconds * Self.second
        refresh = scenario.policy.refreshInterval.clampedNanosecondsForTests
        ownerlessBound = scenario.policy.settle.clampedNanosecondsForTests + 3 * refresh + 5 * Self.second
        report = FleetSimulationReport(scenario: scenario)
        lastOwner = Array(repeating: nil, count: scenario.deviceCount)
        ownerAtSettle = Array(repeating: nil, count: scenario.deviceCount)
        changesAfterSettle = Array(repeating: 0, count: scenario.deviceCount)
        ownerlessSince = Array(repeating: 0, count: scenario.deviceCount)
        linkedBefore = Array(repeating: 0, count: scenario.deviceCount)
    }

    /// Runs `scenario` from start to end.
    static func report(_ scenario: FleetScenario) -> FleetSimulationReport {
        var simulation = FleetSimulation(scenario)
        return simulation.run()
    }

    mutating func run() -> FleetSimulationReport {
        for gateway in gateways.indices {
            queue.schedule(.restart(gateway: gateway), at: scenario.startSeconds[gateway] * Self.second, rank: 2)
        }
        scheduleChaos()
        queue.schedule(.quiet, at: quietAt, rank: 2)
        var checkAt = settledAt
        while checkAt <= endAt {
            queue.schedule(.check, at: checkAt, rank: 4)
            checkAt += Self.second
        }
        while let (time, event) = queue.next(), time <= endAt {
            now = time
            handle(event)
        }
        report.deviceHours = Double(scenario.deviceCount * Int(scenario.measureSeconds)) / 3600
        report.gatewaysAlive = gateways.filter(\.alive).count
        return report
    }

    // MARK: - Events

    private mutating func handle(_ event: SimulationEvent) {
        switch event {
        case .deliver(let target, let device, let claim):
            guard gateways[target].alive, gateways[target].brokerUp else { return }
            switch gateways[target].arbiters[device].receive(claim, at: instant) {
            case .stale: count("stale claims dropped")
            case .fromThisGateway: count("own claims seen")
            case .accepted, .otherDevice: break
            }
            step(target, device)
        case .linkSettled(let gateway, let device, let token, let up):
            guard gateways[gateway].alive, linkTokens[gateway][device] == token else { return }
            setLink(gateway, device, up ? .up : .down)
            if !up { count("connects failed") }
            step(gateway, device)
        case .sample(let gateway, let incarnation):
            guard gateways[gateway].alive, gateways[gateway].incarnation == incarnation else { return }
            for device in deviceKeys.indices {
                if let mean = scenario.means[gateway][device] {
                    let sample = Int((mean + scenario.sigma * random.gaussian()).rounded())
                    gateways[gateway].smoothers[device].add(min(max(sample, -127), 20))
                }
                step(gateway, device)
            }
            queue.schedule(.sample(gateway: gateway, incarnation: incarnation), at: now + Self.sampleInterval, rank: 3)
        case .refresh(let gateway, let incarnation):
            guard gateways[gateway].alive, gateways[gateway].incarnation == incarnation else { return }
            for device in deviceKeys.indices { publish(gateway, device) }
            queue.schedule(.refresh(gateway: gateway, incarnation: incarnation), at: now + refresh, rank: 3)
        case .kill(let gateway):
            guard !isQuiet, gateways[gateway].alive else { return }
            kill(gateway)
        case .restart(let gateway):
            guard !gateways[gateway].alive, !gateways[gateway].isGone else { return }
            start(gateway)
        case .dropLink(let gateway, let device):
            guard !isQuiet, gateways[gateway].alive, links[gateway][device] == .up else { return }
            setLink(gateway, device, .down)
            linkTokens[gateway][device] += 1
            count("links dropped")
            step(gateway, device)
        case .partition:
            guard !isQuiet else { return }
            for index in gateways.indices { gateways[index].group = random.integer(in: 0...1) }
            gateways[0].group = 0
            gateways[gateways.count - 1].group = 1
            count("partitions")
        case .brokerLost(let gateway):
            guard !isQuiet else { return }
            gateways[gateway].brokerUp = false
            count("broker outages")
        case .brokerBack(let gateway):
            gateways[gateway].brokerUp = true
        case .heal:
            for index in gateways.indices { gateways[index].group = 0 }
        case .forge:
            guard !isQuiet else { return }
            broadcast(forgedClaim())
            count("forged claims")
        case .replay:
            guard !isQuiet, !sent.isEmpty else { return }
            broadcast(sent[random.integer(in: 0...(sent.count - 1))])
            count("replayed claims")
        case .quiet:
            // Some killed gateways stay dead for good: only leases can tell the others. Gateways
            // not started yet (calm scenarios) start when planned.
            isQuiet = true
            for index in gateways.indices {
                gateways[index].group = 0
                gateways[index].brokerUp = true
                if !gateways[index].alive && gateways[index].incarnation > 0 {
                    let othersAlive = gateways.indices.contains { $0 != index && gateways[$0].alive }
                    if othersAlive && random.chance(0.4) {
                        gateways[index].isGone = true
                        count("gateways gone for good")
                    } else {
                        start(index)
                    }
                }
            }
        case .check:
            checkOwnership()
        }
    }

    private mutating func start(_ gateway: Int) {
        let devices = deviceKeys.count
        gateways[gateway].alive = true
        gateways[gateway].incarnation += 1
        gateways[gateway].sequence = 0
        gateways[gateway].arbiters = deviceKeys.map { key in
            OwnershipArbiter(
                gateway: gateways[gateway].name,
                device: key,
                incarnation: gateways[gateway].incarnation,
                policy: scenario.policy,
                startedAt: instant
            )
        }
        gateways[gateway].smoothers = Array(repeating: SignalSmoother(), count: devices)
        links[gateway] = Array(repeating: .down, count: devices)
        linkTokens[gateway] = Array(repeating: 0, count: devices)
        states[gateway] = Array(repeating: .candidate, count: devices)
        heldSlots[gateway] = nil
        let incarnation = gateways[gateway].incarnation
        deliverRetained(to: gateway)
        queue.schedule(
            .sample(gateway: gateway, incarnation: incarnation),
            at: now + random.integer(in: 0...Self.sampleInterval),
            rank: 3
        )
        queue.schedule(
            .refresh(gateway: gateway, incarnation: incarnation), at: now + random.integer(in: 0...refresh), rank: 3)
    }

    /// On subscribing, a gateway gets the retained claims, its own previous life's and those of
    /// gateways long dead included; some are missing, as retained messages get lost between brokers.
    private mutating func deliverRetained(to gateway: Int) {
        for source in gateways.indices {
            for device in deviceKeys.indices {
                guard let claim = retained[source][device], random.chance(0.7) else { continue }
                queue.schedule(
                    .deliver(to: gateway, device: device, claim: claim),
                    at: now + random.integer(in: 0...Self.second),
                    rank: 0
                )
            }
        }
    }

    /// SIGKILL: the gateway stops publishing and its links drop; others only notice by leases.
    private mutating func kill(_ gateway: Int) {
        gateways[gateway].alive = false
        for device in deviceKeys.indices {
            setLink(gateway, device, .down)
            linkTokens[gateway][device] += 1
            noteHolders(device)
        }
        count("kills")
        queue.schedule(.restart(gateway: gateway), at: now + random.integer(in: 20...180) * Self.second, rank: 2)
    }

    private mutating func scheduleChaos() {
        for gateway in gateways.indices {
            var time = random.integer(in: 60...660) * Self.second
            while time < quietAt {
                queue.schedule(.kill(gateway: gateway), at: time, rank: 2)
                time += random.integer(in: 60...660) * Self.second
            }
            time = random.integer(in: 60...600) * Self.second
            while time < quietAt {
                queue.schedule(.brokerLost(gateway: gateway), at: time, rank: 2)
                time += random.integer(in: 10...120) * Self.second
                queue.schedule(.brokerBack(gateway: gateway), at: time, rank: 2)
                time += random.integer(in: 60...600) * Self.second
            }
            time = random.integer(in: 30...300) * Self.second
            while time < quietAt {
                let device = random.integer(in: 0...(deviceKeys.count - 1))
                queue.schedule(.dropLink(gateway: gateway, device: device), at: time, rank: 2)
                time += random.integer(in: 30...300) * Self.second
            }
        }
        // Forged and replayed claims stop with the chaos: a lease after the last one, none may count any more.
        for (event, interval) in [(SimulationEvent.forge, 20...120), (.replay, 10...60)]
            as [(SimulationEvent, ClosedRange<Int64>)]
        {
            var time = random.integer(in: interval) * Self.second
            while time < quietAt {
                queue.schedule(event, at: time, rank: 2)
                time += random.integer(in: interval) * Self.second
            }
        }
        var time = random.integer(in: 120...480) * Self.second
        while time < quietAt {
            queue.schedule(.partition, at: time, rank: 2)
            time += random.integer(in: 30...180) * Self.second
            queue.schedule(.heal, at: time, rank: 2)
            time += random.integer(in: 120...480) * Self.second
        }
    }

    // MARK: - One gateway, one device

    /// What the daemon does for one device: observe, decide, follow the link action, publish.
    private mutating func step(_ gateway: Int, _ device: Int) {
        let observation = LocalObservation(
            rssi: scenario.means[gateway][device] == nil ? nil : gateways[gateway].smoothers[device].value,
            freeSlots: freeSlots(of: gateway),
            linkUp: links[gateway][device] == .up,
            brokerConnected: gateways[gateway].brokerUp
        )
        gateways[gateway].arbiters[device].observe(observation)
        let decision = gateways[gateway].arbiters[device].decide(at: instant)
        if states[gateway][device] != decision.state {
            states[gateway][device] = decision.state
            heldSlots[gateway] = nil
        }
        if let change = decision.change { record(change, gateway: gateway, device: device, observation: observation) }
        follow(decision.action, gateway, device)
        if decision.publishNow { publish(gateway, device) }
        noteHolders(device)
    }

    /// Slots in use: devices this gateway owns or has a link (or link attempt) to. Cached, since
    /// every step needs it and it rarely changes.
    private mutating func freeSlots(of gateway: Int) -> Int {
        if heldSlots[gateway] == nil {
            var held = 0
            for device in deviceKeys.indices
            where states[gateway][device] == .owner || links[gateway][device] != .down {
                held += 1
            }
            heldSlots[gateway] = held
        }
        return max(0, scenario.capacities[gateway] - (heldSlots[gateway] ?? 0))
    }

    private mutating func setLink(_ gateway: Int, _ device: Int, _ link: Link) {
        links[gateway][device] = link
        heldSlots[gateway] = nil
    }

    private mutating func follow(_ action: LinkAction, _ gateway: Int, _ device: Int) {
        switch (action, links[gateway][device]) {
        case (.connect, .down):
            setLink(gateway, device, .connecting)
            linkTokens[gateway][device] += 1
            let succeeds = isQuiet || random.chance(0.9)
            queue.schedule(
                .linkSettled(gateway: gateway, device: device, token: linkTokens[gateway][device], up: succeeds),
                at: now + random.integer(in: 500_000_000...3_000_000_000),
                rank: 1
            )
        case (.disconnect, .up):
            setLink(gateway, device, .disconnecting)
            linkTokens[gateway][device] += 1
            queue.schedule(
                .linkSettled(gateway: gateway, device: device, token: linkTokens[gateway][device], up: false),
                at: now + random.integer(in: 50_000_000...500_000_000),
                rank: 1
            )
        case (.disconnect, .connecting):
            setLink(gateway, device, .down)
            linkTokens[gateway][device] += 1
        default:
            break
        }
    }

    /// Publishes through the codec; the payload is decoded once, as every receiver would decode
    /// the same bytes the same way.
    private mutating func publish(_ gateway: Int, _ device: Int) {
        let claim = gateways[gateway].arbiters[device].nextClaim(sequence: gateways[gateway].sequence)
        gateways[gateway].sequence += 1
        let payload = ClaimCodec.encode(claim)
        guard let decoded = try? ClaimCodec.decode(payload, device: deviceKeys[device]), decoded == claim else {
            violate("claim \(payload) did not survive the codec")
            return
        }
        guard gateways[gateway].brokerUp else { return }
        retained[gateway][device] = decoded
        if !isQuiet {
            sent.append(decoded)
            if sent.count > 256 { sent.removeFirst() }
        }
        for target in gateways.indices where target != gateway {
            if !isQuiet && (random.chance(scenario.lossRate) || gateways[target].group != gateways[gateway].group) {
                continue
            }
            queue.schedule(
                .deliver(to: target, device: device, claim: decoded),
                at: now + random.integer(in: 0...(2 * refresh)),
                rank: 0
            )
        }
    }

    /// A claim as an attacker on the broker could write it: under a gateway's own name or a stranger's, with the
    /// extremes the codec accepts (2^53 − 1 incarnations, sequences and terms) or ordinary numbers.
    private mutating func forgedClaim() -> Claim {
        let most = ClaimCodec.maximumCounter
        let names = gateways.map(\.name) + ["gw-x"]
        let name = names[random.integer(in: 0...(names.count - 1))]
        let own = gateways.first { $0.name == name }
        let counters: [UInt64] = [0, 1, own?.incarnation ?? 1, 1_000, most]
        return Claim(
            gateway: name,
            device: deviceKeys[random.integer(in: 0...(deviceKeys.count - 1))],
            incarnation: counters[random.integer(in: 0...(counters.count - 1))],
            sequence: counters[random.integer(in: 0...(counters.count - 1))],
            term: counters[random.integer(in: 0...(counters.count - 1))],
            state: [ClaimState.candidate, .owner, .released][random.integer(in: 0...2)],
            rssi: random.chance(0.2) ? nil : random.integer(in: -127...20),
            freeSlots: random.integer(in: 0...64))
    }

    /// Delivers `claim` to every gateway, as the broker would deliver a message on its topic.
    private mutating func broadcast(_ claim: Claim) {
        guard let device = deviceKeys.firstIndex(of: claim.device) else { return }
        for target in gateways.indices {
            queue.schedule(
                .deliver(to: target, device: device, claim: claim), at: now + random.integer(in: 0...(2 * refresh)),
                rank: 0)
        }
    }

    // MARK: - Properties

    private mutating func record(_ change: OwnershipChange, gateway: Int, device: Int, observation: LocalObservation) {
        if now >= quietAt && now < settledAt {
            report.calmedAfterSeconds = (now - quietAt) / Self.second
        }
        if now >= quietAt && report.changesAfterChaos.count < 40 {
            report.changesAfterChaos.append(
                "+\((now - quietAt) / Self.second) s \(gateways[gateway].name) \(deviceKeys[device]) \(change)"
            )
        }
        switch change {
        case .tookOwnership:
            count("takeovers")
            if observation.rssi == nil || observation.freeSlots <= 0 {
                violate("\(gateways[gateway].name) took \(deviceKeys[device]) without RSSI or free slot")
            }
            if let previous = lastOwner[device], previous != gateway, now >= settledAt {
                report.ownerChangesAfterSettle += 1
                report.ownerChangeSeconds.append((now - settledAt) / Self.second)
                changesAfterSettle[device] += 1
                let from = scenario.means[previous][device] ?? -200
                let to = scenario.means[gateway][device] ?? -200
                if to <= from {
                    violate(
                        "\(deviceKeys[device]) moved from gw-\(previous) (\(from) dBm) to weaker or equal gw-\(gateway) (\(to) dBm)"
                    )
                }
            }
            lastOwner[device] = gateway
        case .lostConflict:
            count("conflicts lost")
            if now >= settledAt { violate("\(gateways[gateway].name) lost a conflict for \(deviceKeys[device])") }
        case .linkLost:
            count("links lost after grace")
            if now >= settledAt { violate("\(gateways[gateway].name) lost its link to \(deviceKeys[device])") }
        case .handedOver:
            count("hand-overs")
        case .releaseCompleted, .becameCandidate:
            break
        }
    }

    /// Safety: after settling, never two owners of one device, by state or by link. Tracks how
    /// long a device has been without an owner holding a link.
    private mutating func noteHolders(_ device: Int) {
        var owners = 0
        var linked = 0
        var holders = 0
        for gateway in gateways.indices where gateways[gateway].alive {
            let owns = states[gateway][device] == .owner
            let up = links[gateway][device] == .up
            if owns { owners += 1 }
            if up { linked += 1 }
            if owns && up { holders += 1 }
        }
        // Counted over the whole run, to show what the chaos does before settling.
        if linked > 1 && linkedBefore[device] <= 1 { count("two links at once") }
        linkedBefore[device] = linked
        if now >= settledAt && (owners > 1 || linked > 1) {
            violate("\(deviceKeys[device]) has \(owners) owners and \(linked) links")
        }
        if holders == 0 {
            if ownerlessSince[device] == nil { ownerlessSince[device] = now }
        } else {
            ownerlessSince[device] = nil
        }
    }

    /// Liveness and stability, once a second after settling.
    private mutating func checkOwnership() {
        // No gateway dies or starts after the quiet phase began, so this is fixed by now.
        let alive = gateways.map(\.alive)
        let feasible = self.feasible ?? deviceKeys.indices.map { scenario.isFeasible(device: $0, alive: alive) }
        self.feasible = feasible
        for device in deviceKeys.indices {
            noteHolders(device)
            if now == settledAt {
                ownerAtSettle[device] = lastOwner[device]
            }
            guard feasible[device], let since = ownerlessSince[device]
            else { continue }
            // A gap that began before settling counts from one bound before it: at the settle
            // time every device must have had an owner within the bound.
            let gap = now - max(since, settledAt - ownerlessBound)
            report.longestOwnerlessNanoseconds = max(report.longestOwnerlessNanoseconds, gap)
            if gap > ownerlessBound {
                violate("\(deviceKeys[device]) has had no owner with a link for \(gap / Self.second) s")
                ownerlessSince[device] = now
            }
        }
        guard now + Self.second > endAt else { return }
        for device in deviceKeys.indices {
            guard let owner = ownerAtSettle[device], let ownerMean = scenario.means[owner][device] else { continue }
            let strongest =
                gateways.indices.filter { gateways[$0].alive }.compactMap { scenario.means[$0][device] }.max()
                ?? ownerMean
            if strongest - ownerMean <= Double(scenario.stableMargin), changesAfterSettle[device] > 0 {
                violate(
                    "\(deviceKeys[device]) changed owner \(changesAfterSettle[device]) times although no gateway "
                        + "beat gw-\(owner) by more than \(scenario.stableMargin) dB"
                )
            }
        }
    }

    private var instant: FleetInstant {
        FleetInstant(nanoseconds: now)
    }

    private mutating func count(_ what: String) {
        report.counts[what, default: 0] += 1
    }

    private mutating func violate(_ what: String) {
        guard report.violations.count < 10 else { return }
        report.violations.append("t=\(now / Self.second) s: \(what)")
    }
}

extension Duration {
    var clampedNanosecondsForTests: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
