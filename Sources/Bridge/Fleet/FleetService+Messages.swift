import Fleet
import MQTT

/// The fleet's broker side: the other gateways' claims, heartbeats and statuses, and who answers a command
/// for a device no gateway here serves.
extension FleetService {
    /// Claims (subscribed to by `ClaimSubscriptions`), heartbeats and the other gateways' statuses (their wills end
    /// their claims at once).
    var route: BrokerRoute {
        let topics = context.topics
        return BrokerRoute(
            // The claims come through the subscriptions `ClaimSubscriptions` makes as devices are heard.
            subscriptions: [
                .init(filter: topics.fleetHeartbeatFilter, qos: .atMostOnce),
                .init(filter: topics.everyGateway("status"), qos: .atLeastOnce, afterRetainedState: true),
            ],
            take: { [self] in receive($0) })
    }

    /// A claim, a heartbeat or a gateway status; false when the topic is none of them, or for this gateway's own
    /// status, which goes on to the leftovers.
    private func receive(_ message: MQTTMessage) -> Bool {
        let topics = context.topics
        let gateway = context.configuration.gateway
        if let (other, family, id) = topics.parseClaim(message.topic) {
            guard other != gateway else { return true }
            // Every refused claim is counted for the health report and logged with its topic.
            func refuse(_ reason: String) {
                coordinator.refuseClaim()
                context.warn("fleet: \(reason)", kind: "refused claim", metadata: ["topic": "\(message.topic)"])
            }
            do {
                let claim = try ClaimCodec.decode(bytes: message.payload, device: FleetCoordinator.key(family, id))
                // One writer per topic: a claim counts for the gateway whose topic it came on, and only if it says
                // so itself, so a broker ACL that lets each gateway write its own topics decides who can claim.
                if claim.gateway != other {
                    refuse("claim ignored: it names another gateway than its topic")
                } else if !coordinator.receive(claim) {
                    refuse("claim ignored: claims name more devices than a fleet has")
                } else {
                    followIfMember(other)
                }
            } catch {
                refuse("malformed claim ignored: \(error)")
            }
            return true
        }
        // Another gateway's status tells whether this one is alone; its will (`offline`) ends its claims at once.
        // This gateway's own goes on to the leftovers, once it has said that the retained statuses are in.
        if let other = topics.parseGatewayStatus(message.topic) {
            let online = message.payloadString == "online"
            guard other != gateway else {
                if online { coordinator.ownStatusArrived() }
                return false
            }
            coordinator.status(of: other, online: online)
            if message.payload.isEmpty {
                // Its retained status cleared: the gateway is retired, and its adoptions stop counting.
                sessions.adoptions.unfollow(other)
            } else if message.payloadString == "offline" {
                peerLines.log(
                    .info, "fleet: \(other) left (its will): its claims end now", kind: "gateway left",
                    metadata: ["gateway": "\(other)"], to: context.logger)
                coordinator.peerLeft(other)
                nextTurn.wake()
            } else if online {
                peerLines.log(
                    .info, "fleet: \(other) is online", kind: "gateway online", metadata: ["gateway": "\(other)"],
                    to: context.logger)
                followIfMember(other)
            }
            return true
        }
        if let other = topics.parseFleetHeartbeat(message.topic) {
            coordinator.heard(other)
            followIfMember(other)
            return true
        }
        return false
    }

    /// Another gateway's adoptions count here once the fleet knows it, by its status and its heartbeats or claims.
    private func followIfMember(_ other: String) {
        if coordinator.isMember(other) { sessions.adoptions.follow(other) }
    }

    /// Whether this gateway answers a command for a device it has no session with: the owner does,
    /// a gateway that may not know the owner stays silent, and for a device nobody owns one gateway answers: the first
    /// by name, which listens to every claim, once it has heard every owner's.
    func answersWithoutSession(family: DeviceFamily, id: String) -> Bool {
        let key = FleetCoordinator.key(family, id)
        if coordinator.presence == .alone || coordinator.isOwner(key) { return true }
        if coordinator.otherOwner(key) != nil { return false }
        return coordinator.answersForUnowned() && claims.knowsWholeFleet
    }
}
