import Bridge
import Logging

/// A setting, named by its key path in the configuration file: the one declaration of a setting.
///
/// A key's declaration gives its path in the file (the raw value), what a value of it is, and its line of help;
/// its environment variable and command-line flag are derived from the path (`environmentVariable`, `flag`), so
/// `--help`, `--print-settings-reference` (docs/settings.md), the error messages and the readers cannot drift
/// apart. Its default is what the resolver makes of nothing, and the reference shows it from there. The gateway's
/// own keys are listed here; each device family declares its section's keys in its own folder (`FamilySettings`),
/// and they join these.
struct ConfigurationKey: Hashable, Sendable {
    let rawValue: String
    /// What a value of the key is in the file.
    let kind: SettingKind
    /// One line for `--help` and the reference.
    let help: String
    /// What a value must be beyond its kind: checked by the resolver, said by `--help` and the reference.
    let rule: SettingRule
    /// The names the key had before every key had its own variable and flag (`GATT2MQTT_BROKER`, `--broker`),
    /// still read.
    let earlier: EarlierNames
    /// Flags that take no value and set the key to a fixed one (`--start-notify`, `--no-fleet`).
    let switches: [SwitchFlag]
    /// Whether the key has a flag of its own (`flag`).
    let hasFlag: Bool
    /// The default where it depends on the machine or on other keys, said in words; any other key's default is
    /// what the resolver makes of nothing (`SettingsReference`), not written here a second time.
    let defaultNote: String?
    /// The family whose section holds the key, and its declaration; nil for the gateway's own keys.
    let familyKey: (family: DeviceFamily, key: FamilySettingKey)?

    private init(
        _ rawValue: String, _ kind: SettingKind, _ help: String, rule: SettingRule = .any,
        earlier: EarlierNames = EarlierNames(),
        switches: [SwitchFlag] = [], hasFlag: Bool = true, defaultNote: String? = nil
    ) {
        self.rawValue = rawValue
        self.kind = kind
        self.help = help
        self.rule = rule
        self.earlier = earlier
        self.switches = switches
        self.hasFlag = hasFlag
        self.defaultNote = defaultNote
        familyKey = nil
    }

    private init(family: DeviceFamily, key: FamilySettingKey) {
        rawValue = "\(family.rawValue).\(key.path)"
        kind = key.kind
        help = key.help
        // A family checks its own values (`FamilySettings.init(from:)`).
        rule = .any
        earlier = EarlierNames()
        switches = []
        hasFlag = true
        defaultNote = nil
        familyKey = (family, key)
    }

    /// A key of the file; nil for any other path.
    init?(rawValue: String) {
        guard let key = Self.byPath[rawValue] else { return nil }
        self = key
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }
    func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    static let brokerURL = Self(
        "broker.url", .text, "The broker, as mqtt://HOST:PORT or mqtts://HOST:PORT (TLS).",
        earlier: EarlierNames(environment: "GATT2MQTT_BROKER", flag: "--broker"))
    static let clientID = Self(
        "broker.client_id", .text, "The MQTT client id; unique on the broker.", defaultNote: "gatt2mqtt-<gateway.name>")
    static let protocolVersion = Self(
        "broker.protocol", .text, "The MQTT protocol version.", rule: .oneOf(["5", "3.1.1"]),
        earlier: EarlierNames(flag: "--mqtt-version"))
    static let keepAlive = Self(
        "broker.keepalive_s", .integer, "Seconds between MQTT keep-alive pings.",
        rule: .range(5, 65535, unit: "seconds"))
    static let username = Self(
        "broker.username", .text, "The broker user name.", earlier: EarlierNames(environment: "GATT2MQTT_MQTT_USERNAME")
    )
    static let passwordFile = Self("broker.password_file", .path, "A file holding the broker password.")
    /// Only from the environment: a password never sits in the file or on the command line.
    static let password = Self(
        "broker.password", .secret, "The broker password, only from the environment; wins over broker.password_file.",
        earlier: EarlierNames(environment: "GATT2MQTT_MQTT_PASSWORD"))
    static let tlsCAFile = Self(
        "broker.tls.ca_file", .path, "The CA certificates (PEM) an mqtts:// broker is checked against.")
    static let tlsCertificateFile = Self(
        "broker.tls.cert_file", .path, "This gateway's client certificate (PEM), for brokers that ask for one.")
    static let tlsKeyFile = Self("broker.tls.key_file", .path, "The client certificate's private key (PEM).")
    static let sessionExpiry = Self(
        "broker.session_expiry_s", .integer,
        "Seconds the broker keeps this gateway's MQTT 5 session after a disconnect.",
        rule: .range(0, Double(UInt32.max), unit: "seconds"))
    static let replyTopics = Self(
        "broker.reply_topics", .list,
        "Topic filters where an MQTT 5 response topic may point, besides the gateway's own.")
    static let gateway = Self(
        "gateway.name", .text, "This gateway's name in gatt2mqtt/<gateway>/… topics (letters, digits, '-', '_').",
        earlier: EarlierNames(environment: "GATT2MQTT_GATEWAY", flag: "--gateway"),
        defaultNote: "the host name up to its first dot")
    static let baseTopic = Self(
        "base_topic", .text, "A topic prefix for every topic, so that two fleets can share a broker.")
    /// One adapter (`adapter: hci0`); `adapters` names several. No flag of its own: `--adapter` has always been
    /// `adapters`' flag, repeated for several.
    static let adapter = Self(
        "adapter", .text, "The BlueZ adapter to be a central on (or adapters, for several).",
        earlier: EarlierNames(environment: "GATT2MQTT_ADAPTER"), hasFlag: false,
        defaultNote: "none (adapters)")
    static let adapters = Self(
        "adapters", .list, "The BlueZ adapters to be a central on; the flag may be repeated.",
        earlier: EarlierNames(flag: "--adapter"))
    static let adapterSlots = Self(
        "adapter_slots", .integer, "Connections each adapter holds at most.", rule: .range(1, 64, unit: "connections"))
    static let acquireNotify = Self(
        "bluez.acquire_notify", .text,
        "Whether notifications come through AcquireNotify's sockets (true), or StartNotify only (false).",
        rule: .boolean,
        switches: [SwitchFlag("--start-notify", "false", "StartNotify only, never AcquireNotify.")])
    static let operationTimeout = Self(
        "bluez.operation_timeout_s", .number,
        "Seconds one GATT read, write or notification set-up may take before it fails; above 5, a connection's set-up and a device's answers may take as many times longer.",
        rule: .range(1, 30, unit: "seconds"))
    static let autoConnect = Self(
        "devices.auto_connect", .text,
        "Which devices connect without a connect request: adopted ones, all, none, or allowed (devices.allow).",
        rule: .oneOf(["adopted", "all", "none", "allowed"]),
        earlier: EarlierNames(flag: "--auto-connect"))
    static let allow = Self(
        "devices.allow", .list, "Addresses that may connect by themselves; implies auto_connect allowed.",
        earlier: EarlierNames(flag: "--allow"))
    static let aliases = Self(
        "devices.aliases", .map, "Names that replace a device's address in its topics (ADDRESS=name, …).")
    static let deviceNames = Self(
        "devices.names", .map, "A device's name in Home Assistant (ADDRESS=name, …).")
    static let deviceEntities = Self(
        "devices.entities", .map,
        "How Home Assistant gets one entity of a device: enabled, disabled or hidden (ADDRESS/entity=choice, …).")
    static let deviceStreaming = Self(
        "devices.streaming", .map,
        "Whether a device's fast streams reach the broker: on or off (ADDRESS=off, …).")
    static let deviceIntervals = Self(
        "devices.intervals", .map,
        "A device's own interval, in seconds, for one of its family's periodic reads (ADDRESS/battery_s=300, …).")
    static let declarations = Self(
        "devices.declarations", .path,
        "A folder of device declarations (*.yaml), served beside the standard profiles shipped with gatt2mqtt.",
        defaultNote: DeclarationCatalog.defaultFolder)
    static let logLevel = Self(
        "log_level", .text, "The level from which log lines go to the journal.",
        rule: .oneOf(logLevels, ignoringCase: true))
    /// The level of `gatt2mqtt/<gateway>/log`, or `off`.
    static let logLevelMQTT = Self(
        "log_level_mqtt", .text, "The level from which log lines go to gatt2mqtt/<gateway>/log; off for none.",
        rule: .oneOf(logLevels + ["off"], ignoringCase: true))
    static let payloadSizeLimit = Self(
        "payload_size_limit", .integer, "Bytes a command payload may have; longer ones are refused unread.",
        rule: .range(64, 268_435_455, unit: "bytes"))
    static let healthInterval = Self(
        "health_s", .number, "Seconds between health reports on gatt2mqtt/<gateway>/health.",
        rule: .range(0.1, 86400, unit: "seconds"))
    static let healthFile = Self(
        "health_file", .path, "A file touched with each health report, for a container's health check.")
    static let stateDirectory = Self(
        "state_directory", .path, "Where the gateway keeps adopted devices, options and its fleet incarnation.",
        defaultNote: "systemd's STATE_DIRECTORY, else /var/lib/gatt2mqtt")
    static let commandRate = Self(
        "limits.command_rate", .number,
        "Commands per second the gateway takes for each device (devices it does not serve share one allowance).",
        rule: .range(0, 10000, unit: "commands per second", lowerExcluded: true))
    static let commandBurst = Self(
        "limits.command_burst", .integer, "Commands taken at once above that rate, for each device.",
        rule: .range(1, 100_000, unit: "commands"))
    static let restartHoldOff = Self(
        "limits.restart_holdoff_s", .integer,
        "Seconds after the gateway's start during which request/restart is refused (too_soon).",
        rule: .range(0, 86400, unit: "seconds"))
    static let privilegedRequests = Self(
        "requests.privileged", .text,
        "Whether request/options and request/restart are taken: auto (only when logged in to the broker), true, false.",
        rule: .oneOf(PrivilegedRequests.allCases.map(\.rawValue)))
    static let homeAssistantEnabled = Self(
        "homeassistant.enabled", .text, "Whether devices are announced to Home Assistant's MQTT discovery.",
        rule: .boolean)
    static let homeAssistantPrefix = Self(
        "homeassistant.discovery_prefix", .text, "The discovery prefix Home Assistant's MQTT integration is set to.")
    static let homeAssistantFastStreams = Self(
        "homeassistant.fast_streams", .text,
        "Whether streams of many values a second (belt heading, force) get entities.",
        rule: .boolean)
    static let homeAssistantDiscovery = Self(
        "homeassistant.discovery", .text,
        "device: one config per device (Home Assistant 2024.11 and later); entity: one per entity.",
        rule: .oneOf(HomeAssistantDiscoveryMode.allCases.map(\.rawValue)))
    static let fleetEnabled = Self(
        "fleet.enabled", .text,
        "auto: follow the fleet's rules while another gateway is online; true: always; false: never.",
        rule: .oneOf(["auto", "true", "false"]),
        switches: [
            SwitchFlag("--fleet", "true", "Follow the fleet's rules even alone."),
            SwitchFlag("--no-fleet", "false", "Never follow the fleet's rules."),
        ])
    static let fleetRefreshSeconds = Self(
        "fleet.refresh_s", .number, "Seconds between claims; the same on every gateway of the fleet.",
        rule: .range(0.5, 600, unit: "seconds"))
    static let fleetIncarnationFile = Self(
        "fleet.incarnation_file", .path, "The file that keeps this gateway's incarnation across restarts.",
        defaultNote: "fleet-incarnation in state_directory")
    static let httpListen = Self(
        "http.listen", .text, "Serve the live page and /metrics on [HOST:]PORT (HOST defaults to 127.0.0.1).",
        earlier: EarlierNames(environment: "GATT2MQTT_HTTP", flag: "--http"), defaultNote: "none: no page")
    static let httpUsername = Self("http.username", .text, "The page's user for basic authentication.")
    static let httpPasswordFile = Self("http.password_file", .path, "A file holding the page's password.")
    /// The page's password as a bcrypt hash, instead of `http.password_file`.
    static let httpPasswordHashFile = Self(
        "http.password_hash_file", .path, "A file holding the page's password as a bcrypt hash, instead.")
    static let httpTokenFile = Self(
        "http.token_file", .path, "A file holding a bearer token for the page and /metrics.")
    static let httpMaxConnections = Self(
        "http.max_connections", .integer, "Connections the page serves at once.",
        rule: .range(1, 65536, unit: "connections"))
    static let httpMaxConnectionsPerSource = Self(
        "http.max_connections_per_source", .integer,
        "Connections the page serves at once to one address; at most http.max_connections.")
    static let httpHosts = Self(
        "http.hosts", .list, "Host names the page answers to besides its address (DNS rebinding guard).")

    /// swift-log's levels, lowest first.
    private static let logLevels = Logger.Level.allCases.map(\.rawValue)

    /// The gateway's own keys.
    private static let gatewayKeys: [Self] = [
        brokerURL, clientID, protocolVersion, keepAlive, username, passwordFile, password, tlsCAFile,
        tlsCertificateFile, tlsKeyFile, sessionExpiry, replyTopics, gateway, baseTopic, adapter, adapters, adapterSlots,
        acquireNotify, operationTimeout, autoConnect, allow, aliases, deviceNames,
        deviceEntities, deviceStreaming, deviceIntervals, declarations, logLevel, logLevelMQTT, payloadSizeLimit,
        healthInterval,
        healthFile, stateDirectory, homeAssistantEnabled, homeAssistantPrefix,
        homeAssistantFastStreams, homeAssistantDiscovery, commandRate,
        commandBurst, restartHoldOff, privilegedRequests, fleetEnabled, fleetRefreshSeconds, fleetIncarnationFile,
        httpListen, httpUsername,
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
    /// The key's own command-line flag: `--` and the key path with dots and underscores as dashes, and a final
    /// `_s` as `-seconds` (`a5.keepalive_s` is `--a5-keepalive-seconds`, `devices.allow` is `--devices-allow`).
    /// A secret is never a flag: it would show in `ps`.
    var flag: String? {
        guard hasFlag, kind != .secret else { return nil }
        var words = rawValue.split(whereSeparator: { $0 == "." || $0 == "_" }).map(String.init)
        if words.last == "s" { words[words.count - 1] = "seconds" }
        return "--" + words.joined(separator: "-")
    }

    /// Every flag that takes a value for the key, its own first; an earlier one only where it differs.
    var flags: [String] {
        guard let flag else { return [] }
        return [flag] + [earlier.flag].compactMap { $0 }.filter { $0 != flag }
    }

    /// The key's own environment variable: `GATT2MQTT_` and its path in capitals, dots as underscores
    /// (`GATT2MQTT_A5_SQUEEZE_NEWTONS`, `GATT2MQTT_DEVICES_ALLOW`), which is how a container is configured.
    var environmentVariable: String {
        "GATT2MQTT_" + String(rawValue.uppercased().map { $0 == "." ? "_" : $0 })
    }

    /// Every variable that sets the key, its own first; an earlier one only where it differs.
    var environmentVariables: [String] {
        [environmentVariable] + [earlier.environment].compactMap { $0 }.filter { $0 != environmentVariable }
    }
}

/// A key's names before every key had its own environment variable and flag, still read.
struct EarlierNames: Sendable {
    var environment: String? = nil
    var flag: String? = nil
}

/// A flag without a value that sets its key to a fixed one: `--no-fleet` is `fleet.enabled: false`.
struct SwitchFlag: Sendable {
    let flag: String
    let value: String
    let help: String

    init(_ flag: String, _ value: String, _ help: String) {
        self.flag = flag
        self.value = value
        self.help = help
    }
}
