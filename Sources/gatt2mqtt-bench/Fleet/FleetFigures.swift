import Foundation

/// Figures read off the observer's record. Pure: the same events give the same figures.
enum FleetFigures {
    /// Gateways whose latest claim on `device` (`<family>/<id>`), still within its lease, says `owner`, at `time`.
    static func owners(of device: String, at time: ContinuousClock.Instant, events: [FleetObserver.Event], lease: Duration) -> Set<String> {
        var latest: [String: (state: String, at: ContinuousClock.Instant)] = [:]
        for event in events where event.at <= time {
            guard let (gateway, claimed) = claim(event.topic), claimed == device else { continue }
            latest[gateway] = (state(of: event.payload), event.at)
        }
        return Set(latest.filter { $0.value.state == "owner" && time - $0.value.at <= lease }.keys)
    }

    /// Seconds within `from…to` in which more than one gateway owned `device`, sampled every 50 ms.
    static func doubleOwnership(of device: String, from: ContinuousClock.Instant, to: ContinuousClock.Instant, events: [FleetObserver.Event], lease: Duration) -> Double {
        let step = Duration.milliseconds(50)
        var time = from
        var samples = 0
        while time < to {
            if owners(of: device, at: time, events: events, lease: lease).count > 1 { samples += 1 }
            time += step
        }
        return Double(samples) * 0.05
    }

    /// How often `<family>/<id>/owner` named a different gateway within `from…to`.
    static func ownerChanges(topic: String, from: ContinuousClock.Instant, to: ContinuousClock.Instant, events: [FleetObserver.Event]) -> Int {
        var last = events.last { $0.topic == topic && $0.at < from }?.payload
        var changes = 0
        for event in events where event.topic == topic && event.at >= from && event.at <= to {
            if let last, last != event.payload { changes += 1 }
            last = event.payload
        }
        return changes
    }

    /// The longest silence between two messages on `topic` within `from…to`, counting from `from`.
    static func longestGap(topic: String, from: ContinuousClock.Instant, to: ContinuousClock.Instant, events: [FleetObserver.Event]) -> Duration {
        var previous = from
        var longest = Duration.zero
        for event in events where event.topic == topic && event.at >= from && event.at <= to {
            longest = max(longest, event.at - previous)
            previous = event.at
        }
        return max(longest, to - previous)
    }

    /// `gatt2mqtt/<gateway>/claim/<family>/<id>` → (gateway, `<family>/<id>`).
    static func claim(_ topic: String) -> (String, String)? {
        let parts = topic.split(separator: "/")
        guard parts.count == 5, parts[0] == "gatt2mqtt", parts[2] == "claim" else { return nil }
        return (String(parts[1]), "\(parts[3])/\(parts[4])")
    }

    static func state(of claim: String) -> String {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(claim.utf8))) as? [String: Any] else { return "" }
        return object["state"] as? String ?? ""
    }
}
