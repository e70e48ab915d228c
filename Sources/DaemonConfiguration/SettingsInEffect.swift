import Bridge
import Logging

/// The configuration in effect as one list, in the file's own keys and order: `--print-config` writes it as YAML
/// (`EffectiveSettingsYAML`) and the gateway's retained `info` carries it as JSON (`EffectiveSettingsJSON`), so the
/// two never disagree. Secrets are only said to be set or not.
extension LoadedConfiguration {
    var settingsInEffect: [EffectiveSetting] {
        let mqtt = bridge.mqtt
        var settings: [EffectiveSetting] = []
        func add(_ path: String, _ value: EffectiveSetting.Value) { settings.append(EffectiveSetting(path, value)) }

        add("version", .number(Double(ConfigurationMigration.fileFormat.current)))
        add("broker.url", .text(brokerURL))
        add("broker.client_id", .text(mqtt.clientID))
        add("broker.protocol", .word(mqtt.protocolVersion == .v5 ? "5" : "3.1.1"))
        add("broker.keepalive_s", .number(Double(mqtt.keepAlive)))
        add("broker.session_expiry_s", .number(Double(bridge.sessionExpirySeconds)))
        add("broker.reply_topics", .texts(bridge.replyTopics.map(\.text)))
        if let username = mqtt.username { add("broker.username", .text(username)) }
        if case .file(let path) = passwordSource { add("broker.password_file", .text(path)) }
        let variable: String? = if case .environment(let name) = passwordSource { name } else { nil }
        add("broker.password", .secret(isSet: passwordSource != nil, note: variable.map { "<redacted> (from \($0))" }))
        if let tls = mqtt.tls {
            if let file = tls.caFile { add("broker.tls.ca_file", .text(file)) }
            if let file = tls.certificateFile { add("broker.tls.cert_file", .text(file)) }
            if let file = tls.keyFile { add("broker.tls.key_file", .text(file)) }
        }
        add("gateway.name", .text(bridge.gateway))
        add("base_topic", .text(bridge.baseTopic))
        add("adapters", .texts(bridge.adapters))
        add("adapter_slots", .number(Double(bridge.adapterSlots)))
        add("bluez.acquire_notify", .flag(bridge.acquireNotify))
        add("bluez.operation_timeout_s", .number(bridge.gattOperationTimeout / .seconds(1)))

        add("devices.auto_connect", .word(bridge.autoConnect.name))
        switch bridge.autoConnect {
        case .all, .none: break
        case .allowList(let addresses), .adopted(let addresses): add("devices.allow", .texts(addresses.sorted()))
        }
        add("devices.aliases", .mapping(bridge.aliases))
        add("devices.names", .mapping(bridge.deviceOptions.compactMapValues(\.name)))
        let entities = bridge.deviceOptions.flatMap { address, options in
            options.entities.map { ("\(address)/\($0.key)", $0.value.rawValue) }
        }
        add("devices.entities", .mapping(Dictionary(uniqueKeysWithValues: entities)))
        add("devices.streaming", .mapping(bridge.deviceOptions.filter { !$0.value.streaming }.mapValues { _ in "off" }))
        let intervals = bridge.deviceOptions.flatMap { address, options in
            options.intervalsInSeconds.map { ("\(address)/\($0.key)", $0.value) }
        }
        add("devices.intervals", .mapping(Dictionary(uniqueKeysWithValues: intervals)))
        for family in FamilySettingsStore.sections.map(\.family) {
            guard let section = bridge.families.settings(of: family) else {
                add(family.rawValue, .mapping([:]))
                continue
            }
            for setting in section.effective { add("\(family.rawValue).\(setting.path)", setting.value) }
        }
        add("log_level", .word(logLevel.rawValue))
        add("log_level_mqtt", .word(logLevelMQTT?.rawValue ?? "off"))
        add("payload_size_limit", .number(Double(bridge.payloadSizeLimit)))
        add("health_s", .number(bridge.healthInterval / .seconds(1)))
        if let file = bridge.healthFile { add("health_file", .text(file)) }
        if let folder = bridge.stateDirectory { add("state_directory", .text(folder)) }
        add("limits.command_rate", .number(bridge.commandRate.perSecond))
        add("limits.command_burst", .number(Double(Int(bridge.commandRate.burst))))
        add("limits.restart_holdoff_s", .number(Double(bridge.restartHoldOff.components.seconds)))
        add("requests.privileged", .word(bridge.privilegedRequests.rawValue))
        add("homeassistant.enabled", .flag(bridge.homeAssistant.enabled))
        add("homeassistant.discovery_prefix", .text(bridge.homeAssistant.discoveryPrefix))
        add("homeassistant.fast_streams", .flag(bridge.homeAssistant.fastStreams))
        add("homeassistant.discovery", .word(bridge.homeAssistant.discovery.rawValue))
        add("fleet.enabled", .word(bridge.fleet.map { $0.joining == .always ? "true" : "auto" } ?? "false"))
        if let fleet = bridge.fleet {
            add("fleet.refresh_s", .number(fleet.refreshInterval / .seconds(1)))
            add("fleet.incarnation_file", .text(fleet.incarnationFile))
        }
        guard let http else {
            add("http", .unset("(off)"))
            return settings
        }
        add("http.listen", .text(http.listen))
        if let user = http.username { add("http.username", .text(user)) }
        if let file = httpPasswordFile { add("http.password_file", .text(file)) }
        if let file = httpPasswordHashFile { add("http.password_hash_file", .text(file)) }
        if let file = httpTokenFile { add("http.token_file", .text(file)) }
        if !http.hosts.isEmpty { add("http.hosts", .texts(http.hosts)) }
        add("http.max_connections", .number(Double(http.maxConnections)))
        add("http.max_connections_per_source", .number(Double(http.maxConnectionsPerSource)))
        return settings
    }

    private var brokerURL: String {
        let host = bridge.mqtt.host.contains(":") ? "[\(bridge.mqtt.host)]" : bridge.mqtt.host
        return "\(bridge.mqtt.tls == nil ? "mqtt" : "mqtts")://\(host):\(bridge.mqtt.port)"
    }
}
