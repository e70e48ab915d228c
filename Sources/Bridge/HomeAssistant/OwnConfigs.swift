/// The retained discovery configs on the broker that are this gateway's kind, per entity or per device: under its
/// node prefixes (the fleet's `fleet_<family>_…`, its own `<gateway>_<family>_…`, its own `gatt2mqtt_<gateway>`), with
/// a device block that names the node (`gatt2mqtt_<node>`; the gateway's node is its identifier as it is) and, for a
/// device, its address (`connections`). Everything else under the discovery
/// prefix (Zigbee2MQTT's, ESPHome's, another fleet's) is looked at once and not kept. What it holds tells the sweep
/// what is left over, and an upgrade which identity Home Assistant already knows a device by.
struct OwnConfigs: Sendable {
    struct Node: Sendable, Equatable {
        /// Nil for the gateway's own node.
        var family: DeviceFamily?
        /// The device's address as BlueZ spells it (upper case); nil for the gateway.
        var address: String?
        /// Each config's topic: its device config's, its entities' configs'.
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

    /// The families this gateway serves (`TopicMap.families`).
    let families: [DeviceFamily]

    init(
        prefix: String, nodePrefixes: [String], gatewayNode: String, families: [DeviceFamily] = DeviceFamily.allCases
    ) {
        self.prefix = prefix
        self.nodePrefixes = nodePrefixes
        self.gatewayNode = gatewayNode
        self.families = families
    }

    /// `<prefix>/+/+/+/config` and `<prefix>/device/+/config`: every entity's config and every device's; what is not
    /// ours is dropped on arrival.
    var filters: [String] { [prefix + "/+/+/+/config", prefix + "/device/+/config"] }

    /// A config's node, and whether it is a device config (`<prefix>/device/<node>/config`) rather than an entity's
    /// (`<prefix>/<component>/<node>/<object>/config`); nil for any other topic.
    func node(of topic: String) -> (node: Substring, isDevice: Bool)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let parts = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.last == "config", !parts.dropLast().contains(where: \.isEmpty) else { return nil }
        switch parts.count {
        case 3 where parts[0] == "device": return (parts[1], true)
        case 4: return (parts[1], false)
        default: return nil
        }
    }

    /// The topics of the configs retained under `node`.
    func topics(of node: String) -> Set<String> { nodes[node]?.topics ?? [] }

    /// Whether a config of ours is retained on `topic`.
    func holds(_ topic: String) -> Bool {
        node(of: topic).flatMap { nodes[String($0.node)]?.topics.contains(topic) } ?? false
    }

    /// Takes a retained config (or its removal, an empty payload). False when the topic is no config.
    mutating func take(topic: String, payload: [UInt8]) -> Bool {
        guard let levels = node(of: topic) else { return false }
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
        guard let owner = Self.owner(payload) else { return true }
        switch kind {
        case .gateway:
            // The gateway's node is its identifier already (`gatt2mqtt_<gateway>`).
            guard owner.identifier == node else { return true }
            nodes[node] = Node(family: nil, address: nil, topics: [topic])
        case .device(let family):
            guard owner.identifier == "gatt2mqtt_" + node, let address = owner.address else { return true }
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
            if let family = families.first(where: {
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
