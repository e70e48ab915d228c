import MQTT

/// What an earlier run left on the broker: a retained `info` naming this gateway, for a device it has no session
/// for. After a crash its `connection` may still say `connected` and its live state (mode, battery…) is stale.
/// Both are corrected before any device is served (BlueZ starts once `read` fires): `connection` becomes
/// `disconnected` and the live state is cleared. A device another gateway serves is left alone. Each such device
/// was served here before: on an upgrade from a version without adoption, it is adopted (`Adoptions`), if this
/// gateway's own state shows that earlier run (`EarlierRun`).
struct Leftovers: Sendable {
    let context: GatewayContext
    let sessions: SessionTable
    let adoptions: Adoptions
    /// Fired when the retained `info` of an earlier run has been read: the gateway's own retained status came
    /// back after it.
    let read = OneShotSignal()

    /// Every family's retained `info`, ended by the gateway's own retained status.
    var route: BrokerRoute {
        let topics = context.topics
        return BrokerRoute(
            subscriptions: DeviceFamily.allCases.map { .init(filter: topics.infoFilter($0), qos: .atLeastOnce) }
                + [.init(filter: topics.status, qos: .atLeastOnce, afterRetainedState: true)],
            take: { [self] message in
                if message.topic == topics.status {
                    // Only the retained copy our subscription brings ends the leftovers: a persistent session may
                    // first deliver what was queued for it, such as the crashed run's own will.
                    if message.retain { read.fire() }
                    return true
                }
                guard message.retain, let (family, id) = topics.parseInfo(message.topic) else { return false }
                correct(family: family, id: id, info: message)
                return true
            })
    }

    private func correct(family: DeviceFamily, id: String, info: MQTTMessage) {
        guard case .object(let members)? = JSONValue.parse(info.payload),
            members["gateway"] == .string(context.configuration.gateway)
        else { return }
        if let address = members["address"]?.string, DeviceID.isAddress(address) {
            adoptions.adoptServedEarlier(address, as: family)
        }
        guard sessions.session(family: family, id: id) == nil else { return }
        context.logger.info(
            "correcting the retained state an earlier run left", metadata: ["device": "\(family.rawValue)/\(id)"])
        let topics = context.topics
        context.publisher.publish(
            .state(topics.device(family, id, "connection"), ConnectionState.disconnected.rawValue))
        let leaves = context.driver(of: family)?.liveStateLeaves ?? []
        for leaf in leaves.sorted() { context.publisher.publish(.state(topics.device(family, id, leaf), "")) }
    }
}
