import MQTT

/// Adoption in a fleet: what another gateway adopted counts here too, so that this gateway may take the device over,
/// and what one forgets the others forget. Only from members: a gateway becomes one when the fleet sees it online by
/// its rules (`FleetCoordinator.isMember`: its `status` `online`, and its heartbeats or claims), and only then is its
/// list subscribed to (`gatt2mqtt/<gateway>/adopted`, retained, `…/forgotten` and `…/renamed`), so a list published
/// under a name nobody runs never reaches the gateway. A member's list is held apart (`PeerAdoptions`), bounded, and
/// fills none of this gateway's places: clearing it undoes what it did. A device this gateway takes over from a
/// member that is gone is adopted here, as its own act (`tookOver`).
extension Adoptions {
    /// `gateway` is a member of the fleet now: its adoptions are followed (a no-op when they are already).
    func follow(_ gateway: String) {
        switch peers.withLock({ $0.admit(gateway) }) {
        case .member:
            return
        case .full:
            context.warn(
                "fleet: more gateways than are followed; this one's adoptions do not count here",
                kind: "adoption members full",
                metadata: ["gateway": "\(gateway)", "limit": "\(PeerAdoptions.memberLimit)"])
        case .admitted:
            context.logger.info("fleet: following the adoptions of \(gateway)", metadata: ["gateway": "\(gateway)"])
            for filter in Self.memberTopics(gateway, context.topics) {
                // The client keeps the subscription and sends it again with the next connection if it cannot now.
                do { try context.mqtt.subscribe(filter, qos: .atLeastOnce) } catch {
                    context.warn("fleet: \(error)", kind: "adoption subscription", metadata: [:])
                }
            }
        }
    }

    /// `gateway` left the fleet for good (its retained status was cleared): its list stops counting here. A gateway
    /// that is only away (its will said `offline`) stays followed: its devices are the ones to take over.
    func unfollow(_ gateway: String) {
        guard let change = peers.withLock({ $0.isMember(gateway) ? $0.retire(gateway) : nil }) else { return }
        for filter in Self.memberTopics(gateway, context.topics) {
            do { try context.mqtt.unsubscribe(filter) } catch {
                context.warn("fleet: \(error)", kind: "adoption subscription", metadata: [:])
            }
        }
        context.logger.info("fleet: \(gateway) retired; its adoptions no longer count here")
        logUncounted(change.uncounted, by: gateway)
    }

    /// This gateway took `address` in the fleet (it owns it now). If it counts here only through the list of a member
    /// that `isGone` (its will came, or nothing of it was heard for a lease), this gateway has taken it over: adopted
    /// here, so that it still serves it after its own restart while the other is away. Not while that member is
    /// online: a device nobody claims, listed by a live gateway, is no take-over.
    func tookOver(_ address: String, as family: DeviceFamily, isGone: (String) -> Bool) {
        guard !holds(address), let from = peers.withLock({ $0.adopter(of: address) }), isGone(from) else { return }
        adopt(address, as: family, by: "taken over from gateway \(from)")
    }

    /// A message on a member's topics; false for any other topic. One from a gateway that is no member (a subscription
    /// just ended) is dropped.
    func takeFromMember(_ message: MQTTMessage) -> Bool {
        let topics = context.topics
        if let gateway = topics.parseGatewayLeaf(message.topic, "adopted") {
            if peers.withLock({ $0.isMember(gateway) }) { takeList(message.payload, from: gateway) }
            return true
        }
        if let gateway = topics.parseGatewayLeaf(message.topic, "forgotten") {
            // A forget is an event: one the broker kept (retained by some client) is no forget now.
            if !message.retain, peers.withLock({ $0.isMember(gateway) }) { takeForget(message.payload, from: gateway) }
            return true
        }
        return false
    }

    private static func memberTopics(_ gateway: String, _ topics: TopicMap) -> [String] {
        let member = TopicMap(gateway: gateway, baseTopic: topics.baseTopic)
        // Its renames too, which the requests feature takes (`GatewayRequests+FleetRename`).
        return [member.adopted, member.gatewayTopic("forgotten"), member.gatewayTopic(GatewayRequests.renamedLeaf)]
    }

    /// A member's list, whole: what it holds counts here, what it no longer holds does not. An empty payload (a
    /// cleared topic) is an empty list.
    private func takeList(_ payload: [UInt8], from gateway: String) {
        guard
            let list = payload.isEmpty ? AdoptionList() : AdoptionList.parse(payload, families: context.topics.families)
        else {
            context.warn(
                "a gateway's adopted list is no JSON list; ignored", kind: "malformed adopted list",
                metadata: ["gateway": "\(gateway)"])
            return
        }
        let change = peers.withLock { $0.replace(gateway, with: list) }
        if change.leftOut > 0 {
            context.warn(
                "fleet: a gateway's adopted list holds more devices than count here; the rest are left out",
                kind: "adopted list too long",
                metadata: [
                    "gateway": "\(gateway)", "devices": "\(list.count)", "limit": "\(PeerAdoptions.perGatewayLimit)",
                ])
        }
        let counted = change.counted.filter { !holds($0.address) }
        for entry in counted.prefix(Self.namedPerChange) {
            context.logger.notice(
                "device adopted by another gateway",
                metadata: ["device": "\(entry.address)", "family": "\(entry.family.rawValue)", "gateway": "\(gateway)"])
        }
        logRest(counted.count, "adopted by another gateway", by: gateway)
        logUncounted(change.uncounted, by: gateway)
    }

    /// At most this many devices are named in the log for one change of a member's list; the others are counted in a
    /// line of their own, so that a list of 256 makes 11 lines, not 256.
    static let namedPerChange = 10

    private func logUncounted(_ addresses: [String], by gateway: String) {
        let uncounted = addresses.filter { !holds($0) }
        for address in uncounted.prefix(Self.namedPerChange) {
            context.logger.notice(
                "device no longer adopted by another gateway",
                metadata: ["device": "\(address)", "gateway": "\(gateway)"])
        }
        logRest(uncounted.count, "no longer adopted by another gateway", by: gateway)
    }

    private func logRest(_ count: Int, _ what: String, by gateway: String) {
        guard count > Self.namedPerChange else { return }
        context.logger.notice(
            "more devices \(what)", metadata: ["devices": "\(count - Self.namedPerChange)", "gateway": "\(gateway)"])
    }

    /// A member forgot a device (a `forget` request there): forgotten here too, unless the allow list names it.
    private func takeForget(_ payload: [UInt8], from gateway: String) {
        guard case .object(let members)? = JSONValue.parse(payload), let address = members["address"]?.string,
            DeviceID.isAddress(address)
        else {
            context.warn(
                "a gateway's forgotten device is no JSON object with an address; ignored", kind: "malformed forgotten",
                metadata: ["gateway": "\(gateway)"])
            return
        }
        guard !context.live.autoConnect.allows(address) else { return }
        remove([address], by: "gateway \(gateway)")
    }
}
