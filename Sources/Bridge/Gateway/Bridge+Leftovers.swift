import MQTT

extension Bridge {
    /// A retained `info` naming this gateway, for a device it has no session for, is what an earlier run
    /// left behind: after a crash its `connection` may still say `connected` and its live state (mode,
    /// battery…) is stale. Both are corrected before the device is served again: `connection` becomes
    /// `disconnected` and the live state is cleared. A device another gateway serves is left alone.
    func correctLeftovers(family: DeviceFamily, id: String, info: MQTTMessage) {
        guard case .object(let members)? = JSONValue.parse(info.payload),
            members["gateway"] == .string(configuration.gateway)
        else { return }
        let served = sessions.session(family: family, id: id) != nil
        guard !served else { return }
        logger.info("correcting the retained state an earlier run left", metadata: ["device": "\(family.rawValue)/\(id)"])
        publisher.publish(.state(topics.device(family, id, "connection"), ConnectionState.disconnected.rawValue))
        let leaves = drivers.first { $0.family == family }?.liveStateLeaves ?? []
        for leaf in leaves.sorted() { publisher.publish(.state(topics.device(family, id, leaf), "")) }
    }
}
