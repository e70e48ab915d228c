/// Every setting, named by its key path in the configuration file.
///
/// One table for the three spellings: the file's key path (the raw value), the environment variable
/// and the command-line flag, so error messages and documentation cannot drift apart.
enum ConfigurationKey: String, CaseIterable, Sendable {
    case brokerURL = "broker.url"
    case clientID = "broker.client_id"
    case protocolVersion = "broker.protocol"
    case keepAlive = "broker.keepalive_s"
    case username = "broker.username"
    case passwordFile = "broker.password_file"
    /// Only from the environment: a password never sits in the file or on the command line.
    case password = "broker.password"
    case tlsCAFile = "broker.tls.ca_file"
    case tlsCertificateFile = "broker.tls.cert_file"
    case tlsKeyFile = "broker.tls.key_file"
    case gateway = "gateway.name"
    case baseTopic = "base_topic"
    /// One adapter (`adapter: hci0`); `adapters` names several.
    case adapter = "adapter"
    case adapters = "adapters"
    case adapterSlots = "adapter_slots"
    case acquireNotify = "bluez.acquire_notify"
    case autoConnect = "devices.auto_connect"
    case allow = "devices.allow"
    case aliases = "devices.aliases"
    case a5SqueezeNewtons = "a5.squeeze_newtons"
    case a5ReleaseNewtons = "a5.release_newtons"
    case a5DoubleSqueezeSeconds = "a5.double_squeeze_s"
    case a5KeepAliveSeconds = "a5.keepalive_s"
    case a5Reconnect = "a5.reconnect"
    case a5BatterySeconds = "a5.battery_s"
    case cprBatterySeconds = "cpr.battery_s"
    case cprSignalSeconds = "cpr.signal_s"
    case cprAngleSamples = "cpr.angle_samples"
    case cprRange = "cpr.range_mm"
    case cprRateWindow = "cpr.rate_window_s"
    case cprReferencePower = "cpr.distance.reference_dbm"
    case cprExponent = "cpr.distance.exponent"
    case gripProfile = "grip.profile"
    case logLevel = "log_level"
    case payloadSizeLimit = "payload_size_limit"
    case sessionExpiry = "broker.session_expiry_s"
    case healthInterval = "health_s"
    case commandRate = "limits.command_rate"
    case commandBurst = "limits.command_burst"
    case fleetEnabled = "fleet.enabled"
    case fleetRefreshSeconds = "fleet.refresh_s"
    case fleetIncarnationFile = "fleet.incarnation_file"
    case httpListen = "http.listen"
    case httpUsername = "http.username"
    case httpPasswordFile = "http.password_file"
    case httpTokenFile = "http.token_file"

    /// What a value of the key is in the file.
    enum Kind: Sendable {
        /// Any scalar, taken as written (`protocol: 3.1.1`, `username: 0123`).
        case text
        /// A file name; relative names are relative to the configuration file.
        case path
        /// A plain (unquoted) decimal number.
        case number
        /// A plain (unquoted) whole number.
        case integer
        /// A list of scalars.
        case list
        /// A mapping of scalars to scalars.
        case map
        /// A list of whole numbers.
        case integers
        /// Never in the file.
        case secret
    }

    var kind: Kind {
        switch self {
        case .brokerURL, .clientID, .protocolVersion, .username, .gateway, .adapter, .autoConnect, .a5Reconnect,
            .logLevel, .baseTopic, .fleetEnabled, .httpListen, .httpUsername, .acquireNotify:
            .text
        case .passwordFile, .tlsCAFile, .tlsCertificateFile, .tlsKeyFile, .gripProfile, .fleetIncarnationFile,
            .httpPasswordFile, .httpTokenFile:
            .path
        case .a5SqueezeNewtons, .a5ReleaseNewtons, .a5DoubleSqueezeSeconds, .a5KeepAliveSeconds, .cprRateWindow,
            .cprReferencePower, .cprExponent, .healthInterval, .commandRate, .a5BatterySeconds, .cprBatterySeconds,
            .cprSignalSeconds, .fleetRefreshSeconds:
            .number
        case .keepAlive, .cprAngleSamples, .payloadSizeLimit, .sessionExpiry, .commandBurst, .adapterSlots: .integer
        case .allow, .adapters: .list
        case .aliases: .map
        case .cprRange: .integers
        case .password: .secret
        }
    }

    /// The environment variable that sets the key, if any.
    var environmentVariable: String? {
        switch self {
        case .brokerURL: "GATT2MQTT_BROKER"
        case .adapter: "GATT2MQTT_ADAPTER"
        case .gateway: "GATT2MQTT_GATEWAY"
        case .baseTopic: "GATT2MQTT_BASE_TOPIC"
        case .httpListen: "GATT2MQTT_HTTP"
        case .logLevel: "GATT2MQTT_LOG_LEVEL"
        case .username: "GATT2MQTT_MQTT_USERNAME"
        case .password: "GATT2MQTT_MQTT_PASSWORD"
        default: nil
        }
    }

    /// The key this one is another spelling of (one value where the other takes a list): a file holds one of them.
    var alternative: ConfigurationKey? { self == .adapter ? .adapters : nil }

    /// Whether the file may hold the key.
    var isInFile: Bool { kind != .secret }

    /// Mappings of the file that hold keys rather than values (`broker`, `broker.tls`, …), and `belt`,
    /// which has no settings yet but is accepted empty.
    static let sections: Set<String> = {
        var sections: Set<String> = ["belt"]
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
