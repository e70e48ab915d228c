import Fleet

/// Drives one arbiter the way the daemon does: observe, decide, follow the link action, publish
/// when asked. Link changes take effect at once (seen at the next step) unless `followsActions`
/// is off, so a test can hold the link down or up.
struct TestGateway {
    var arbiter: OwnershipArbiter
    var rssi: Int?
    var freeSlots: Int
    var linkUp = false
    var brokerConnected = true
    /// No other gateway online (`LocalObservation.alone`).
    var alone = false
    var followsActions = true
    var sequence: UInt64 = 0
    var lastDecision: OwnershipDecision?

    init(
        _ name: String,
        rssi: Int?,
        freeSlots: Int = 3,
        incarnation: UInt64 = 1,
        device: String = TestGateway.device,
        policy: OwnershipPolicy = .standard,
        startedAt: FleetInstant = .seconds(0)
    ) {
        arbiter = OwnershipArbiter(
            gateway: name,
            device: device,
            incarnation: incarnation,
            policy: policy,
            startedAt: startedAt
        )
        self.rssi = rssi
        self.freeSlots = freeSlots
    }

    static let device = "belt/aabbccddeeff"

    var name: String { arbiter.gateway }

    /// Observes, decides and follows the action; returns the decision and the claim published
    /// because the decision asked for it.
    @discardableResult
    mutating func step(at now: FleetInstant) -> (decision: OwnershipDecision, published: Claim?) {
        arbiter.observe(
            LocalObservation(
                rssi: rssi, freeSlots: freeSlots, linkUp: linkUp, brokerConnected: brokerConnected, alone: alone))
        let decision = arbiter.decide(at: now)
        lastDecision = decision
        if followsActions {
            switch decision.action {
            case .connect: linkUp = true
            case .disconnect: linkUp = false
            case .none: break
            }
        }
        return (decision, decision.publishNow ? publish() : nil)
    }

    /// Publishes the current claim, as the periodic refresh does.
    mutating func publish() -> Claim {
        defer { sequence += 1 }
        return arbiter.nextClaim(sequence: sequence)
    }

    /// A claim from another gateway, for feeding an arbiter by hand.
    static func claim(
        from gateway: String,
        state: ClaimState,
        term: UInt64 = 0,
        rssi: Int? = -60,
        freeSlots: Int = 3,
        incarnation: UInt64 = 1,
        sequence: UInt64
    ) -> Claim {
        Claim(
            gateway: gateway,
            device: device,
            incarnation: incarnation,
            sequence: sequence,
            term: term,
            state: state,
            rssi: rssi,
            freeSlots: freeSlots
        )
    }
}

/// A few test gateways stepping once a second and exchanging claims instantly (unless cut off),
/// each refreshing every refresh interval; it logs every role change.
struct TestFleet {
    struct Event: Equatable, CustomStringConvertible {
        var second: Int64
        var gateway: String
        var change: OwnershipChange

        var description: String { "t=\(second) \(gateway) \(change)" }
    }

    var gateways: [TestGateway]
    /// Start second of each gateway; a gateway does nothing before it.
    var starts: [Int64]
    var second: Int64 = 0
    var events: [Event] = []
    /// Pairs of gateway indices whose messages are lost (a partition).
    var cut: Set<[Int]> = []
    /// Highest number of gateways publishing `owner` at one time.
    var mostOwnersAtOnce = 0

    init(_ gateways: [TestGateway], starts: [Int64]? = nil) {
        self.gateways = gateways
        self.starts = starts ?? Array(repeating: 0, count: gateways.count)
    }

    subscript(name: String) -> TestGateway {
        get { gateways.first { $0.name == name }! }
        set { gateways[gateways.firstIndex { $0.name == name }!] = newValue }
    }

    /// Runs whole seconds until `end` (exclusive).
    mutating func run(until end: Int64) {
        while second < end {
            let now = FleetInstant.seconds(second)
            for index in gateways.indices where second >= starts[index] {
                let (decision, published) = gateways[index].step(at: now)
                if let change = decision.change {
                    events.append(Event(second: second, gateway: gateways[index].name, change: change))
                }
                if gateways[index].alone {
                    // Alone, a gateway publishes nothing (`FleetCoordinator`): there is no one to tell.
                } else if let published {
                    deliver(published, from: index, at: now)
                } else if (second - starts[index]) % 10 == 0 {
                    deliver(gateways[index].publish(), from: index, at: now)
                }
            }
            mostOwnersAtOnce = max(mostOwnersAtOnce, owners.count)
            second += 1
        }
    }

    /// Gateways whose published state is `owner`.
    var owners: [String] {
        gateways.indices.filter { second >= starts[$0] && gateways[$0].arbiter.state == .owner }.map {
            gateways[$0].name
        }
    }

    func events(of gateway: String) -> [Event] {
        events.filter { $0.gateway == gateway }
    }

    private mutating func deliver(_ claim: Claim, from source: Int, at now: FleetInstant) {
        for target in gateways.indices where target != source && second >= starts[target] {
            guard !cut.contains([min(source, target), max(source, target)]) else { continue }
            gateways[target].arbiter.receive(claim, at: now)
        }
    }
}
