import Locks

/// Carries out `ClaimInterest` for the fleet: subscribes to the claims of the devices this gateway hears (or, while
/// it answers for devices nobody owns, to every claim), and has the coordinator forget what it stopped listening to.
final class ClaimSubscriptions: Sendable {
    private let context: GatewayContext
    private let coordinator: FleetCoordinator
    private let interest: Mutex<ClaimInterest>

    init(context: GatewayContext, coordinator: FleetCoordinator) {
        self.context = context
        self.coordinator = coordinator
        interest = Mutex(ClaimInterest(linger: coordinator.policy.lease, limit: FleetCoordinator.deviceLimit))
    }

    /// One turn: `heard` are the keys of the devices heard now.
    func turn(heard: [String], wholeFleet: Bool) {
        let coordinator = coordinator
        // The heard devices' set is made only in the rare turn that needs it, not every second.
        let (change, devices) = interest.withLock { interest in
            let change = interest.turn(heard: heard, owned: coordinator.isOwner, wholeFleet: wholeFleet, at: .now)
            return (change, change.forgetUnheard ? interest.devices : [])
        }
        let topics = context.topics
        func filter(_ of: ClaimInterest.Filter) -> String {
            switch of {
            case .device(let key): topics.claimFilter(device: key)
            case .wholeFleet: topics.claimFilter
            }
        }
        // The client keeps every subscription and sends it again with each new connection, so one it could not send
        // now goes out with the next; each failure is logged, and the others are still made.
        for each in change.subscribe {
            do { try context.mqtt.subscribe(filter(each), qos: .atMostOnce) } catch {
                context.warn("fleet: \(error)", kind: "claim subscription", metadata: [:])
            }
        }
        for each in change.unsubscribe {
            do { try context.mqtt.unsubscribe(filter(each)) } catch {
                context.warn("fleet: \(error)", kind: "claim subscription", metadata: [:])
            }
        }
        if change.subscribe.contains(.wholeFleet) || change.unsubscribe.contains(.wholeFleet) {
            let what =
                wholeFleet
                ? "every claim (this gateway answers for devices nobody owns)"
                : "the claims of the devices this gateway hears"
            context.logger.info("fleet: listening to \(what)")
        }
        coordinator.forget(change.forget)
        if change.forgetUnheard { coordinator.forgetAll(except: devices) }
    }

    /// Whether this gateway's arbiter for `key` hears the other gateways' claims on it, so that it may decide.
    func listens(to key: String) -> Bool { interest.withLock { $0.listens(to: key) } }

    /// Whether every owner's claim has come in: every claim has been coming for the settle period.
    var knowsWholeFleet: Bool {
        let settle = coordinator.policy.settle
        return interest.withLock { $0.knowsWholeFleet(for: settle, at: .now) }
    }

    /// Whether another gateway may own `key`: its claims say so, or this gateway cannot tell yet. It can once it has
    /// listened to the device's claims (as a device it hears, or with every claim) for a lease, the time the fleet's
    /// rules give an owner before they count it gone, and alone (there is no other gateway). Hearing a device is not
    /// enough: its subscription is as new as the sighting, and a sweep in between cleared the configs of a device
    /// another gateway served; a refresh and a half was not either, for an owner whose claim came late.
    func mayBeOwnedElsewhere(_ key: String) -> Bool {
        if coordinator.otherOwner(key) != nil { return true }
        if coordinator.presence == .alone { return false }
        let lease = coordinator.policy.lease
        return !interest.withLock { $0.knowsClaims(on: key, for: lease, at: .now) }
    }
}
