/// The retained discovery configs on the broker that are this gateway's kind: under its node prefixes (the fleet's
/// `fleet_<family>_…`, its own `<gateway>_<family>_…`, its own `gatt2mqtt_<gateway>`), with a device block that names
/// the node (`gatt2mqtt_<node>`) and, for a device, its address (`connections`). Everything else under the discovery
/// prefix (Zigbee2MQTT's, ESPHome's, another fleet's) is looked at once and not kept. What it holds tells the sweep
/// what is left over, and an upgrade which identity Home Assistant already knows a device by.
struct OwnConfigs: Sendable {
    struct Node: Sendable, Equatable {
        /// Nil for the gateway's own node.
        var family: DeviceFamily?
        /// The device's address as BlueZ spells it (upper case); nil for the gateway.
        var address: String?
        /// Each config's topic, by `<component>/<object>`.
        var topics: Set<String> = []
    }

    /// `homeassistant.discovery_prefix`.
    let prefix: String
    /// The node prefixes that are this gateway's, each followed by `<family>_`: `fleet_` in a fleet, and its own.
    let nodePrefixes: [String]
    /// The gateway's own node (`gatt2mqtt_<gateway>`).
    let gatewayNode: String
    /// The most configs kept: a broker holding more of ours than this is not one gateway's (or a fleet's) doing.
    var limit = 50_000

    private(set) var nodes: [String: Node] = [:]
    private(set) var count = 0
    /// Configs of ours left out because the limit was reached.
    private(set) var overflowed = 0

    init(prefix: String, nodePrefixes: [String], gatewayNode: String) {
        self.prefix = prefix
        self.nodePrefixes = nodePrefixes
        self.gatewayNode = gatewayNode
    }

    /// `<prefix>/+/+/+/config`: every config; what is not ours is dropped on arrival.
    var filter: String { prefix + "/+/+/+/config" }

    /// `<prefix>/<component>/<node>/<object>/config` → its three levels; nil for any other topic.
    func levels(of topic: String) -> (component: Substring, node: Substring, object: Substring)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let parts = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[3] == "config", !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            return nil
        }
        return (parts[0], parts[1], parts[2])
    }

    /// Takes a retained config (or its removal, an empty payload). False when the topic is no config.
    mutating func take(topic: String, payload: [UInt8]) -> Bool {
        guard let levels = levels(of: topic) else { return false }
        let node = String(levels.node)
        if payload.isEmpty {
            guard var known = nodes[node], known.topics.remove(topic) != nil else { return true }
            count -= 1
            nodes[node] = known.topics.isEmpty ? nil : known
            return true
        }
        if var known = nodes[node] {
            // A node is proved ours once; its later configs are taken on its word.
            guard !known.topics.contains(topic) else { return true }
            guard count < limit else {
                overflowed += 1
                return true
            }
            known.topics.insert(topic)
            nodes[node] = known
            count += 1
            return true
        }
        guard let kind = kind(of: node) else { return true }
        guard count < limit else {
            overflowed += 1
            return true
        }
        guard let owner = Self.owner(payload), owner.identifier == "gatt2mqtt_" + node else { return true }
        switch kind {
        case .gateway:
            nodes[node] = Node(family: nil, address: nil, topics: [topic])
        case .device(let family):
            guard let address = owner.address else { return true }
            nodes[node] = Node(family: family, address: address, topics: [topic])
        }
        count += 1
        return true
    }

    private enum Kind {
        case gateway
        case device(DeviceFamily)
    }

    /// Whose a node is: the gateway's, a device's of a family under one of the prefixes, or (nil) nobody's here.
    private func kind(of node: String) -> Kind? {
        if node == gatewayNode { return .gateway }
        for nodePrefix in nodePrefixes where node.hasPrefix(nodePrefix) {
            let rest = node.dropFirst(nodePrefix.count)
            if let family = DeviceFamily.allCases.first(where: {
                rest.hasPrefix($0.rawValue + "_") && rest.count > $0.rawValue.count + 1
            }) {
                return .device(family)
            }
        }
        return nil
    }

    /// The device block's first identifier, and its `mac` connection as an address.
    private static func owner(_ payload: [UInt8]) -> (identifier: String, address: String?)? {
        guard case .object(let config)? = JSONValue.parse(payload), case .object(let device)? = config["device"],
            case .array(let identifiers)? = device["identifiers"], let identifier = identifiers.first?.string
        else { return nil }
        var address: String?
        if case .array(let connections)? = device["connections"] {
            for case .array(let pair) in connections where pair.count == 2 && pair[0].string == "mac" {
                if let mac = pair[1].string, DeviceID.isAddress(mac) { address = mac.uppercased() }
            }
        }
        return (identifier, address)
    }

    /// The identities (what follows `<nodePrefix><family>_`) Home Assistant knows the device at `address` by under
    /// `nodePrefix`, the one that has the most configs first.
    func identities(of family: DeviceFamily, at address: String, under nodePrefix: String) -> [String] {
        let start = nodePrefix + family.rawValue + "_"
        return nodes.filter {
            $0.value.family == family && $0.value.address == address.uppercased() && $0.key.hasPrefix(start)
        }
        .sorted {
            $0.value.topics.count != $1.value.topics.count
                ? $0.value.topics.count > $1.value.topics.count : $0.key < $1.key
        }
        .map { String($0.key.dropFirst(start.count)) }
    }
}
