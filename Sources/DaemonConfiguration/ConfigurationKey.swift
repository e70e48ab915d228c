import Bridge

/// A setting, named by its key path in the configuration file.
///
/// One table for the three spellings: the file's key path (the raw value), the environment variable
/// and the command-line flag, so error messages and documentation cannot drift apart. The gateway's own
/// keys are listed here; each device family declares its section's keys in its own folder
/// (`FamilySettings`), and they join these.
struct ConfigurationKey: Hashable, Sendable {
    let rawValue: String
    /// What a value of the key is in the file.
    let kind: SettingKind
    /// The shorter variable that set the key before every key had its own (`GATT2MQTT_BROKER`), still read.
    let legacyEnvironmentVariable: String?
    /// The family whose section holds the key, and its declaration; nil for the gateway's own keys.
    let familyKey: (family: DeviceFamily, key: FamilySettingKey)?

    private init(_ rawValue: String, _ kind: SettingKind, environment: String? = nil) {
        self.rawValue = rawValue
        self.kind = kind
        legacyEnvironmentVariable = environment
        familyKey = nil
    }

    private init(family: DeviceFamily, key: FamilySettingKey) {
        rawValue = "\(family.rawValue).\(key.path)"
        kind = key.kind
        legacyEnvironmentVariable = nil
        familyKey = (family, key)
    }

    /// A key of the file; nil for any other path.
    init?(rawValue: String) {
        guard let key = Self.byPath[rawValue] else { return nil }
        self = key
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    static let brokerURL = Self("broker.url", .text, environment: "GATT2MQTT_BROKER")
    static let clientID = Self("broker.client_id", .text)
    static let protocolVersion = Self("broker.protocol", .text)
    static let keepAlive = Self("broker.keepalive_s", .integer)
    static let username = Self("broker.username", .text, environment: "GATT2MQTT_MQTT_USERNAME")
    static let passwordFile = Self("broker.password_file", .path)
    /// Only from the environment: a password never sits in the file or on the command line.
    static let password = Self("broker.password", .secret, environment: "GATT2MQTT_MQTT_PASSWORD")
    static let tlsCAFile = Self("broker.tls.ca_file", .path)
    static let tlsCertificateFile = Self("broker.tls.cert_file", .path)
    static let tlsKeyFile = Self("broker.tls.key_file", .path)
    static let sessionExpiry = Self("broker.session_expiry_s", .integer)
    static let replyTopics = Self("broker.reply_topics", .list)
    static let gateway = Self("gateway.name", .text, environment: "GATT2MQTT_GATEWAY")
    static let baseTopic = Self("base_topic", .text, environment: "GATT2MQTT_BASE_TOPIC")
    /// One adapter (`adapter: hci0`); `adapters` names several.
    static let adapter = Self("adapter", .text, environment: "GATT2MQTT_ADAPTER")
    static let adapters = Self("adapters", .list)
    static let adapterSlots = Self("adapter_slots", .integer)
    static let acquireNotify = Self("bluez.acquire_notify", .text)
    static let autoConnect = Self("devices.auto_connect", .text)
    static let allow = Self("devices.allow", .list)
    static let aliases = Self("devices.aliases", .map)
    static let logLevel = Self("log_level", .text, environment: "GATT2MQTT_LOG_LEVEL")
    /// The level of `gatt2mqtt/<gateway>/log`, or `off`.
    static let logLevelMQTT = Self("log_level_mqtt", .text, environment: "GATT2MQTT_LOG_LEVEL_MQTT")
    static let payloadSizeLimit = Self("payload_size_limit", .integer)
    static let healthInterval = Self("health_s", .number)
    static let healthFile = Self("health_file", .path, environment: "GATT2MQTT_HEALTH_FILE")
    static let stateDirectory = Self("state_directory", .path, environment: "GATT2MQTT_STATE_DIRECTORY")
    static let commandRate = Self("limits.command_rate", .number)
    static let commandBurst = Self("limits.command_burst", .integer)
    static let homeAssistantEnabled = Self("homeassistant.enabled", .text)
    static let homeAssistantPrefix = Self("homeassistant.discovery_prefix", .text)
    static let homeAssistantFastStreams = Self("homeassistant.fast_streams", .text)
    static let fleetEnabled = Self("fleet.enabled", .text)
    static let fleetRefreshSeconds = Self("fleet.refresh_s", .number)
    static let fleetIncarnationFile = Self("fleet.incarnation_file", .path)
    static let httpListen = Self("http.listen", .text, environment: "GATT2MQTT_HTTP")
    static let httpUsername = Self("http.username", .text)
    static let httpPasswordFile = Self("http.password_file", .path)
    /// The page's password as a bcrypt hash, instead of `http.password_file`.
    static let httpPasswordHashFile = Self("http.password_hash_file", .path)
    static let httpTokenFile = Self("http.token_file", .path)
    static let httpMaxConnections = Self("http.max_connections", .integer)
    static let httpMaxConnectionsPerSource = Self("http.max_connections_per_source", .integer)
    static let httpHosts = Self("http.hosts", .list)

    /// The gateway's own keys.
    private static let gatewayKeys: [Self] = [
        brokerURL, clientID, protocolVersion, keepAlive, username, passwordFile, password, tlsCAFile,
        tlsCertificateFile, tlsKeyFile, sessionExpiry, replyTopics, gateway, baseTopic, adapter, adapters, adapterSlots,
        acquireNotify, autoConnect, allow, aliases, logLevel, logLevelMQTT, payloadSizeLimit, healthInterval,
        healthFile, stateDirectory, homeAssistantEnabled, homeAssistantPrefix,
        homeAssistantFastStreams, commandRate,
        commandBurst, fleetEnabled, fleetRefreshSeconds, fleetIncarnationFile, httpListen, httpUsername,
        httpPasswordFile, httpPasswordHashFile, httpTokenFile, httpHosts, httpMaxConnections,
        httpMaxConnectionsPerSource,
    ]

    /// The keys of the registered families' sections, in the registry's order.
    static let familyKeys: [Self] = FamilySettingsStore.sections.flatMap { section in
        (section.settings?.keys ?? []).map { Self(family: section.family, key: $0) }
    }

    static let allCases: [Self] = gatewayKeys + familyKeys

    private static let byPath: [String: Self] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The key a family's key path names.
    static func family(_ family: DeviceFamily, _ path: String) -> Self {
        guard let key = byPath["\(family.rawValue).\(path)"] else {
            preconditionFailure("\(family) declares no setting '\(path)'")
        }
        return key
    }

    /// The key this one is another spelling of (one value where the other takes a list; the page's password
    /// hashed where the other holds it plain): a file holds one of them.
    var alternative: ConfigurationKey? {
        switch self {
        case .adapter: .adapters
        case .httpPasswordHashFile: .httpPasswordFile
        default: nil
        }
    }

    /// Whether the file may hold the key.
    var isInFile: Bool { kind != .secret }

    /// Mappings of the file that hold keys rather than values (`broker`, `broker.tls`, …), and every
    /// registered family's, which a family without settings (the belt) has empty.
    static let sections: Set<String> = {
        var sections = Set(FamilySettingsStore.sections.map(\.family.rawValue))
        for key in allCases where key.isInFile {
            let parts = key.rawValue.split(separator: ".")
            for end in parts.indices.dropLast() { sections.insert(parts[...end].joined(separator: ".")) }
        }
        return sections
    }()

    /// The keys and sections directly inside `section` ("" for the top level), sorted, for error messages.
    static func children(of section: String) -> [String] {
        let prefix = section.isEmpty ? "" : section + "."
        let names = allCases.filter(\.isInFile).map(\.rawValue) + Array(sections)
        let children = names.compactMap { name -> String? in
            guard name.hasPrefix(prefix), name != section else { return nil }
            return name.dropFirst(prefix.count).split(separator: ".").first.map(String.init)
        }
        return Set(children).sorted()
    }
}

extension ConfigurationKey {
    /// A family key's command-line flag: `--` and the key path with dots and underscores as dashes, and a
    /// final `_s` as `-seconds` (`a5.keepalive_s` is `--a5-keepalive-seconds`). The gateway's own flags are
    /// declared by the executable. A secret is never a flag, and a mapping has no one-word form.
    var familyFlag: String? {
        guard familyKey != nil, kind != .secret, kind != .map else { return nil }
        var words = rawValue.split(whereSeparator: { $0 == "." || $0 == "_" }).map(String.init)
        if words.last == "s" { words[words.count - 1] = "seconds" }
        return "--" + words.joined(separator: "-")
    }
}

extension ConfigurationKey {
    /// The key's own environment variable: `GATT2MQTT_` and its path in capitals, dots as underscores
    /// (`GATT2MQTT_A5_SQUEEZE_NEWTONS`, `GATT2MQTT_DEVICES_ALLOW`), which is how a container is configured.
    var environmentVariable: String {
        "GATT2MQTT_" + String(rawValue.uppercased().map { $0 == "." ? "_" : $0 })
    }

    /// Every variable that sets the key, its own first; a legacy one only where it differs.
    var environmentVariables: [String] {
        [environmentVariable] + [legacyEnvironmentVariable].compactMap { $0 }.filter { $0 != environmentVariable }
    }
}
