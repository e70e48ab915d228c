/// Every topic the bridge uses, in one place (topics.md is the contract for users).
public struct TopicMap: Sendable {
    /// The gateway's name, in `gatt2mqtt/<gateway>/…`.
    public var gateway: String
    /// Put before every topic (`<base>/gatt2mqtt/<gateway>/…`, `<base>/belt/<id>/…`) so that two fleets
    /// can share a broker; empty (the default) for none. Home Assistant's own topics keep theirs.
    public var baseTopic: String
    /// The families this gateway serves, the written ones and those declared (`DeviceDeclaration`): the only ones a
    /// device topic, a claim or a command may name here.
    public var families: [DeviceFamily]

    public init(gateway: String, baseTopic: String = "", families: [DeviceFamily] = DeviceFamily.allCases) {
        self.gateway = gateway
        self.baseTopic = baseTopic
        self.families = families
    }

    /// The served family of that name; nil for any other.
    public func family(named name: Substring) -> DeviceFamily? {
        families.first { $0.rawValue.utf8.elementsEqual(name.utf8) }
    }

    /// The gateway's name in identifiers outside topics (Home Assistant's unique ids): with the base topic
    /// in front, so that two fleets' gateways of one name stay apart.
    public var identity: String { baseTopic.isEmpty ? gateway : fleetIdentity + "_" + gateway }

    /// A fleet's name in identifiers: its base topic written as an identifier, or `fleet` without one.
    public var fleetIdentity: String {
        baseTopic.isEmpty
            ? "fleet" : String(baseTopic.unicodeScalars.map { Self.isGatewayNameCharacter($0) ? Character($0) : "_" })
    }

    /// `<base>/` or nothing.
    private var prefix: String { baseTopic.isEmpty ? "" : baseTopic + "/" }

    /// `<base>/gatt2mqtt/<gateway>/<leaf>`.
    public func gatewayTopic(_ leaf: String) -> String { "\(prefix)gatt2mqtt/\(gateway)/\(leaf)" }

    /// `<base>/gatt2mqtt/+/<leaf>`: that leaf of every gateway.
    public func everyGateway(_ leaf: String) -> String { "\(prefix)gatt2mqtt/+/\(leaf)" }

    /// `gatt2mqtt/<gateway>/request/<name>`.
    public func request(_ name: String) -> String { gatewayTopic("request/\(name)") }

    /// `topic` without the base topic; nil for a topic outside it.
    public func withoutBase(_ topic: String) -> String? { afterBase(topic).map(String.init) }

    /// `topic` after the base topic, compared and cut byte by byte: MQTT topics are bytes, and by Swift's characters a
    /// `/` (or `+`, `#`, `$`) followed by a combining mark is one character that is not `/` (found by TopicParsingFuzz).
    private func afterBase(_ topic: String) -> Substring? {
        guard topic.utf8.starts(with: prefix.utf8) else { return nil }
        return Substring(topic.utf8.dropFirst(prefix.utf8.count))
    }

    /// The levels of `text`, split at every `/` byte (never inside a character of more bytes: UTF-8 keeps `/` for `/`).
    static func levels(_ text: Substring) -> [Substring] {
        text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }
    }

    /// Whether `text` holds any of these ASCII bytes.
    private static func holds(_ text: String, anyOf bytes: String) -> Bool {
        text.utf8.contains { bytes.utf8.contains($0) }
    }

    /// `gatt2mqtt/<gateway>/status`: retained `online`, with `offline` as the will.
    public var status: String { gatewayTopic("status") }

    /// The subscription for gateway requests, `gatt2mqtt/<gateway>/request/+`.
    public var requestFilter: String { request("+") }

    /// `gatt2mqtt/<gateway>/response/<name>`, where a request is answered without an MQTT 5 response topic.
    public func response(_ name: String) -> String { gatewayTopic("response/\(name)") }

    /// Devices seen during a scan.
    public var scan: String { gatewayTopic("scan") }

    /// The periodic health report.
    public var health: String { gatewayTopic("health") }

    /// The gateway's log lines at or above `log_level_mqtt` (`LogTopic`).
    public var log: String { gatewayTopic("log") }
    /// Retained: `powered`, `off`, `missing` or `unauthorized`, for the gateway's adapters together
    /// (`powered` when one of them is).
    public var adapter: String { gatewayTopic("adapter") }
    /// Retained: the same for one adapter.
    public func adapter(_ name: String) -> String { gatewayTopic("adapter/\(name)") }

    /// The retained inventory.
    public var devices: String { gatewayTopic("devices") }

    /// A fleet gateway's claim on a device: `gatt2mqtt/<gateway>/claim/<family>/<id>` (only that gateway writes it).
    public func claim(_ family: DeviceFamily, _ id: String) -> String { gatewayTopic("claim/\(family.rawValue)/\(id)") }

    /// Every fleet gateway's claims.
    public var claimFilter: String { everyGateway("claim/+/+") }

    /// Every fleet gateway's claims on one device, by its fleet key (`<family>/<id>`).
    public func claimFilter(device key: String) -> String { everyGateway("claim/\(key)") }

    /// The devices this gateway adopted (retained), `gatt2mqtt/<gateway>/adopted`.
    public var adopted: String { gatewayTopic("adopted") }

    /// Whether the join window is open (retained), `gatt2mqtt/<gateway>/permit_join`.
    public var permitJoin: String { gatewayTopic("permit_join") }

    /// A fleet gateway's heartbeat, `gatt2mqtt/<gateway>/fleet`.
    public var fleetHeartbeat: String { gatewayTopic("fleet") }

    /// Every fleet gateway's heartbeat.
    public var fleetHeartbeatFilter: String { everyGateway("fleet") }

    /// Splits `gatt2mqtt/<gateway>/claim/<family>/<id>`; nil for anything else, a name no gateway may have, or an
    /// id no device may have (a stranger's topic must not make a table entry of any size).
    public func parseClaim(_ topic: String) -> (gateway: String, family: DeviceFamily, id: String)? {
        guard let parts = deviceLevels(topic), parts.count == 5, parts[0] == "gatt2mqtt", parts[2] == "claim",
            let family = family(named: parts[3]), Self.isValidGatewayName(String(parts[1])),
            Self.isValidDeviceID(String(parts[4]))
        else { return nil }
        return (String(parts[1]), family, String(parts[4]))
    }

    /// The gateway of `gatt2mqtt/<gateway>/<leaf>` (one level); nil for anything else, or a name no gateway may have.
    public func parseGatewayLeaf(_ topic: String, _ leaf: String) -> String? {
        guard let parts = deviceLevels(topic), parts.count == 3, parts[0] == "gatt2mqtt", parts[2] == leaf,
            Self.isValidGatewayName(String(parts[1]))
        else { return nil }
        return String(parts[1])
    }

    /// The gateway of `gatt2mqtt/<gateway>/status`.
    public func parseGatewayStatus(_ topic: String) -> String? { parseGatewayLeaf(topic, "status") }

    /// The gateway of `gatt2mqtt/<gateway>/fleet`.
    public func parseFleetHeartbeat(_ topic: String) -> String? { parseGatewayLeaf(topic, "fleet") }

    /// The request name of `gatt2mqtt/<gateway>/request/<name>`; nil for any other topic.
    public func parseRequest(_ topic: String) -> String? {
        let requests = gatewayTopic("request/")
        guard topic.utf8.starts(with: requests.utf8) else { return nil }
        let name = String(Substring(topic.utf8.dropFirst(requests.utf8.count)))
        return name.isEmpty || Self.holds(name, anyOf: "/") ? nil : name
    }

    /// `<family>/<id>/<leaf>`, e.g. `belt/aabbccddeeff/heading`.
    public func device(_ family: DeviceFamily, _ id: String, _ leaf: String) -> String {
        "\(prefix)\(family.rawValue)/\(id)/\(leaf)"
    }

    /// The subscription that receives every command of a family.
    public func commandFilter(_ family: DeviceFamily) -> String { "\(prefix)\(family.rawValue)/+/cmd/+" }

    /// Every device's retained `info` of a family, read at start to find state an earlier run left behind.
    public func infoFilter(_ family: DeviceFamily) -> String { "\(prefix)\(family.rawValue)/+/info" }

    /// Every device's retained `<leaf>` of a family (`<family>/+/<leaf>`).
    public func leafFilter(_ family: DeviceFamily, _ leaf: String) -> String { "\(prefix)\(family.rawValue)/+/\(leaf)" }

    /// Splits `<family>/<id>/info`; nil for anything else.
    public func parseInfo(_ topic: String) -> (family: DeviceFamily, id: String)? {
        guard let (family, id, leaf) = parseLeaf(topic), leaf == "info" else { return nil }
        return (family, id)
    }

    /// Splits `<family>/<id>/<leaf>`; nil for anything else, or an id no device may have (a stranger's topic must
    /// not reach a table or a log line at any size).
    public func parseLeaf(_ topic: String) -> (family: DeviceFamily, id: String, leaf: String)? {
        guard let parts = deviceLevels(topic) else { return nil }
        guard parts.count == 3, let family = family(named: parts[0]),
            Self.isValidDeviceID(String(parts[1])),
            !parts[2].isEmpty
        else { return nil }
        return (family, String(parts[1]), String(parts[2]))
    }

    /// The default reply topic when a command carries no MQTT 5 response topic.
    public func reply(_ family: DeviceFamily, _ id: String) -> String { device(family, id, "reply") }

    /// Splits `<family>/<id>/cmd/<name>`; nil for anything else, or for an id no device may have or a name no
    /// command may have (`isMalformedCommand`).
    public func parseCommand(_ topic: String) -> (family: DeviceFamily, id: String, command: String)? {
        guard let (family, id, name) = commandLevels(topic), Self.isValidDeviceID(id), Self.isValidCommandName(name)
        else { return nil }
        return (family, id, name)
    }

    /// A topic shaped as a family's command whose device id or command name no device or command may have: refused
    /// with a warning, never routed.
    public func isMalformedCommand(_ topic: String) -> Bool {
        commandLevels(topic) != nil && parseCommand(topic) == nil
    }

    private func commandLevels(_ topic: String) -> (DeviceFamily, String, String)? {
        guard let parts = deviceLevels(topic), parts.count == 4, parts[2] == "cmd",
            let family = family(named: parts[0])
        else { return nil }
        return (family, String(parts[1]), String(parts[3]))
    }

    /// Command names: 1 to 64 of `a-z`, `0-9` and `_`, as every command of every family is spelled.
    public static func isValidCommandName(_ name: String) -> Bool {
        (1...64).contains(name.unicodeScalars.count)
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The levels of a device topic after the base topic; nil when it lacks the base.
    private func deviceLevels(_ topic: String) -> [Substring]? {
        afterBase(topic).map(Self.levels)
    }

    /// A base topic is empty, or a plain topic (`isPlainTopic`).
    public static func isValidBaseTopic(_ base: String) -> Bool { base.isEmpty || isPlainTopic(base) }

    /// One or more non-empty levels without wildcards or NUL, and not a `$` system topic: a topic to publish on that
    /// no broker reads in another way.
    static func isPlainTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.first != UInt8(ascii: "$") && !holds(topic, anyOf: "+#\0")
            && levels(Substring(topic)).allSatisfy { !$0.isEmpty }
    }

    /// A device's `<id>`: its address's 12 hex digits, or an alias of 1 to 64 lower-case letters, digits,
    /// '-' or '_'; either way one safe topic level.
    public static func isValidDeviceID(_ id: String) -> Bool {
        (1...64).contains(id.count)
            && id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
    }

    /// Gateway names become topic levels: keep them to a safe alphabet, 1 to 64 characters.
    public static func isValidGatewayName(_ name: String) -> Bool {
        (1...64).contains(name.unicodeScalars.count)
            && name.unicodeScalars.allSatisfy { Self.isGatewayNameCharacter($0) }
    }

    /// The gateway name's alphabet: ASCII letters and digits, `-` and `_`.
    public static func isGatewayNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
            || scalar == "_"
    }
}
