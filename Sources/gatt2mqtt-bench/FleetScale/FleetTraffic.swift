/// What the fleet-scale observer saw on the broker, sorted by what it is for: the fleet's own messages (claims,
/// heartbeats, gateway statuses) apart from the rest (a device's `owner` and other state, which a gateway without
/// a fleet publishes as well), so that the fleet's cost can be told from the devices'.
enum FleetTraffic {
    enum Kind: String, Sendable, CaseIterable {
        /// `gatt2mqtt/<gateway>/claim/<family>/<id>`
        case claim
        /// `gatt2mqtt/<gateway>/fleet`
        case heartbeat
        /// `gatt2mqtt/<gateway>/status` (`online`, or `offline`: a goodbye or a will)
        case status
        /// `<family>/<id>/owner`
        case owner
        /// Anything else: the devices' state, requests, the broker's `$SYS`.
        case other
    }

    /// The kind of a message on `topic` (the benchmark's gateways have no base topic).
    static func kind(of topic: String) -> Kind {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        if levels.first == "gatt2mqtt", levels.count >= 3 {
            if levels.count == 5, levels[2] == "claim" { return .claim }
            if levels.count == 3, levels[2] == "fleet" { return .heartbeat }
            if levels.count == 3, levels[2] == "status" { return .status }
            return .other
        }
        if levels.count == 3, levels[2] == "owner", !topic.hasPrefix("$") { return .owner }
        return .other
    }

    /// Messages of each kind per second over a window.
    struct Rates: Sendable, Equatable {
        var seconds: Double
        var perSecond: [Kind: Double]

        /// The rates of `kinds` (one per message seen) over `seconds`.
        init(_ kinds: [Kind], seconds: Double) {
            self.seconds = seconds
            var counts: [Kind: Int] = [:]
            for kind in kinds { counts[kind, default: 0] += 1 }
            perSecond = Dictionary(
                uniqueKeysWithValues: Kind.allCases.map { ($0, seconds > 0 ? Double(counts[$0] ?? 0) / seconds : 0) })
        }

        /// Claims, heartbeats and statuses: what the fleet adds to the broker.
        var fleet: Double { (perSecond[.claim] ?? 0) + (perSecond[.heartbeat] ?? 0) + (perSecond[.status] ?? 0) }
        var claims: Double { perSecond[.claim] ?? 0 }
        var heartbeats: Double { perSecond[.heartbeat] ?? 0 }
        var statuses: Double { perSecond[.status] ?? 0 }
    }
}
