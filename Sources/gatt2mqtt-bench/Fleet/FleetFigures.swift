import Foundation

/// Figures read off the observer's record. Pure: the same events give the same figures.
enum FleetFigures {
    /// One gateway's claim on a device, as the observer received it.
    struct Claim {
        var gateway: String
        var state: String
        var at: ContinuousClock.Instant
    }

    /// Every claim on `device` (`<family>/<id>`), in arrival order; each payload is read once.
    /// A gateway's will (`gatt2mqtt/<gateway>/status` `offline`) ends its claims on every device, as it does at
    /// every gateway of the fleet: it counts as a claim in the state `gone`.
    static func claims(of device: String, events: [FleetObserver.Event]) -> [Claim] {
        events.compactMap { event in
            if let gateway = departed(event) { return Claim(gateway: gateway, state: "gone", at: event.at) }
            guard let (gateway, claimed) = claim(event.topic), claimed == device else { return nil }
            return Claim(gateway: gateway, state: state(of: event.payload), at: event.at)
        }
    }

    /// The gateway whose will `event` is.
    static func departed(_ event: FleetObserver.Event) -> String? {
        let parts = event.topic.split(separator: "/")
        guard parts.count == 3, parts[0] == "gatt2mqtt", parts[2] == "status", event.payload == "offline" else {
            return nil
        }
        return String(parts[1])
    }

    /// Gateways whose latest claim on `device`, still within its lease, says `owner`, at `time`.
    static func owners(
        of device: String, at time: ContinuousClock.Instant, events: [FleetObserver.Event], lease: Duration
    ) -> Set<String> {
        var latest: [String: Claim] = [:]
        for claim in claims(of: device, events: events) where claim.at <= time { latest[claim.gateway] = claim }
        return owners(latest, at: time, lease: lease)
    }

    private static func owners(_ latest: [String: Claim], at time: ContinuousClock.Instant, lease: Duration) -> Set<
        String
    > {
        Set(latest.values.filter { $0.state == "owner" && time - $0.at <= lease }.map(\.gateway))
    }

    /// Seconds within the `windows` in which more than one gateway owned `device`, sampled every 50 ms.
    /// One sweep over the claims: each sample only takes the claims that arrived since the one before.
    static func doubleOwnership(
        of device: String, in windows: [Range<ContinuousClock.Instant>], events: [FleetObserver.Event], lease: Duration
    ) -> Double {
        let claims = claims(of: device, events: events)
        let step = Duration.milliseconds(50)
        var samples = 0
        for window in windows {
            var latest: [String: Claim] = [:]
            var next = 0
            var time = window.lowerBound
            while time < window.upperBound {
                while next < claims.count, claims[next].at <= time {
                    latest[claims[next].gateway] = claims[next]
                    next += 1
                }
                if owners(latest, at: time, lease: lease).count > 1 { samples += 1 }
                time += step
            }
        }
        return Double(samples) * 0.05
    }

    /// How often `<family>/<id>/owner` named a different gateway within `from…to`.
    static func ownerChanges(
        topic: String, from: ContinuousClock.Instant, to: ContinuousClock.Instant, events: [FleetObserver.Event]
    ) -> Int {
        var last = events.last { $0.topic == topic && $0.at < from }?.payload
        var changes = 0
        for event in events where event.topic == topic && event.at >= from && event.at <= to {
            if let last, last != event.payload { changes += 1 }
            last = event.payload
        }
        return changes
    }

    /// The longest silence between two messages on `topic` within `from…to`, counting from `from`.
    static func longestGap(
        topic: String, from: ContinuousClock.Instant, to: ContinuousClock.Instant, events: [FleetObserver.Event]
    ) -> Duration {
        var previous = from
        var longest = Duration.zero
        for event in events where event.topic == topic && event.at >= from && event.at <= to {
            longest = max(longest, event.at - previous)
            previous = event.at
        }
        return max(longest, to - previous)
    }

    /// How many replies each of the benchmark's commands got, by transaction, in the order of `transactions`.
    static func replies(to transactions: [String], events: [FleetObserver.Event]) -> [Int] {
        var counts: [String: Int] = [:]
        for event in events where event.topic.hasSuffix("/reply") {
            guard let transaction = field("transaction", of: event.payload) else { continue }
            counts[transaction, default: 0] += 1
        }
        return transactions.map { counts[$0] ?? 0 }
    }

    /// `gatt2mqtt/<gateway>/claim/<family>/<id>` → (gateway, `<family>/<id>`).
    static func claim(_ topic: String) -> (String, String)? {
        let parts = topic.split(separator: "/")
        guard parts.count == 5, parts[0] == "gatt2mqtt", parts[2] == "claim" else { return nil }
        return (String(parts[1]), "\(parts[3])/\(parts[4])")
    }

    static func state(of claim: String) -> String { field("state", of: claim) ?? "" }

    private static func field(_ name: String, of json: String) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else {
            return nil
        }
        return object[name] as? String
    }
}
