/// The take-overs of a fleet-scale run: `ScaleRun.kills` owners killed one after another, a refresh apart, each
/// the gateway that owns most devices at the time, so that each kill hands over as many devices as it can.
extension ScaleRun {
    struct TakeOver {
        /// The fleet's messages in the first R after each kill, all kills together.
        var rates = FleetTraffic.Rates([], seconds: 0)
        var brokerSent: Double?
        var cpu = 0.0
        var willDelays: [Double] = []
        /// Per device taken, nanoseconds from the will's arrival and from the kill.
        var afterWill: [Int64] = []
        var afterKill: [Int64] = []
        var untaken = 0
    }

    func killOwners(_ gateways: [ScaleGateway], observer: ScaleObserver) async throws -> TakeOver {
        let refresh = Self.refresh
        var result = TakeOver()
        var killed: Set<String> = []
        var kinds: [FleetTraffic.Kind] = []
        var seconds = 0.0
        var cpu = 0.0
        var sent: [Double] = []
        for kill in 0..<Self.kills {
            // A refresh for the fleet to settle after the previous kill.
            if kill > 0 { try await Task.sleep(for: .seconds(refresh)) }
            guard let victim = Self.biggestOwner(observer, among: gateways, except: killed) else { break }
            let cpuBefore = Self.cpuSeconds()
            let killedAt = Self.now
            victim.kill()
            killed.insert(victim.name)
            // One refresh of traffic after the kill; then up to 35 s more for every device to be taken.
            try await Task.sleep(for: .seconds(refresh))
            let windowEnd = Self.now
            cpu += Self.cpuSeconds() - cpuBefore
            seconds += windowEnd - killedAt
            var ledger = OwnershipLedger(ScaleObserver.ledgerEvents(observer.messages))
            for _ in 0..<35 where Self.untaken(ledger, victim.name, killedAt) > 0 {
                try await Task.sleep(for: .seconds(1))
                ledger = OwnershipLedger(ScaleObserver.ledgerEvents(observer.messages))
            }
            let messages = observer.messages
            kinds += messages.filter { $0.at >= killedAt && $0.at < windowEnd }.map { FleetTraffic.kind(of: $0.topic) }
            if let rate = Self.counterRate(messages, "sent", killedAt, windowEnd) { sent.append(rate) }
            let will = ledger.will(of: victim.name, after: killedAt)
            if let will { result.willDelays.append(will - killedAt) }
            let taken = ledger.takeovers(of: victim.name, killedAt: killedAt, since: killedAt)
            for case let after? in taken.values {
                result.afterKill.append(Int64(after * 1e9))
                if let will { result.afterWill.append(Int64((after - (will - killedAt)) * 1e9)) }
            }
            result.untaken += taken.values.filter { $0 == nil }.count
            say(
                "killed \(victim.name), owner of \(taken.count) devices; after the will so far p50/p99/max "
                    + "\(LatencySummary(nanoseconds: result.afterWill).text) ms")
        }
        result.rates = FleetTraffic.Rates(kinds, seconds: seconds)
        result.brokerSent = sent.isEmpty ? nil : sent.reduce(0, +) / Double(sent.count)
        result.cpu = seconds > 0 ? cpu / seconds : 0
        return result
    }

    /// The live gateway that owns most devices now (on equal counts the first by name).
    private static func biggestOwner(
        _ observer: ScaleObserver, among gateways: [ScaleGateway], except killed: Set<String>
    )
        -> ScaleGateway?
    {
        let owners = OwnershipLedger(ScaleObserver.ledgerEvents(observer.messages)).owners(at: now)
        var owned: [String: Int] = [:]
        for gateway in owners.values.flatMap({ $0 }) where !killed.contains(gateway) { owned[gateway, default: 0] += 1 }
        guard let name = owned.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else { return nil }
        return gateways.first { $0.name == name }
    }

    /// How many of the devices `victim` owned at `killedAt` nobody has taken yet.
    private static func untaken(_ ledger: OwnershipLedger, _ victim: String, _ killedAt: Double) -> Int {
        ledger.takeovers(of: victim, killedAt: killedAt, since: killedAt).values.filter { $0 == nil }.count
    }
}
