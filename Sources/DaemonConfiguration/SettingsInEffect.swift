import Bridge
import Logging

/// The configuration in effect as one list, in the file's own keys and order: `--print-config` writes it as YAML
/// (`EffectiveSettingsYAML`) and the gateway's retained `info` carries it as JSON (`EffectiveSettingsJSON`), so the
/// two never disagree. Secrets are only said to be set or not.
extension LoadedConfiguration {
    var settingsInEffect: [EffectiveSetting] {
        let mqtt = bridge.mqtt
        var settings: [EffectiveSetting] = []
        // By key, so that a setting said here is one the file, `--help` and the reference know (`ConfigurationKey`);
        // the file's version, a family's empty section and the page's absence are the only entries beside keys.
        func add(_ key: ConfigurationKey, _ value: EffectiveSetting.Value) {
            settings.append(EffectiveSetting(key.rawValue, value))
        }
        func add(entry path: String, _ value: EffectiveSetting.Value) { settings.append(EffectiveSetting(path, value)) }

        add(entry: "version", .number(Double(ConfigurationMigration.fileFormat.current)))
        add(.brokerURL, .text(brokerURL))
        add(.clientID, .text(mqtt.clientID))
        add(.protocolVersion, .word(mqtt.protocolVersion == .v5 ? "5" : "3.1.1"))
        add(.keepAlive, .number(Double(mqtt.keepAlive)))
        add(.sessionExpiry, .number(Double(bridge.sessionExpirySeconds)))
        add(.replyTopics, .texts(bridge.replyTopics.map(\.text)))
        if let username = mqtt.username { add(.username, .text(username)) }
        if case .file(let path) = passwordSource { add(.passwordFile, .text(path)) }
        let variable: String? = if case .environment(let name) = passwordSource { name } else { nil }
        add(.password, .secret(isSet: passwordSource != nil, note: variable.map { "<redacted> (from \($0))" }))
        if let tls = mqtt.tls {
            if let file = tls.caFile { add(.tlsCAFile, .text(file)) }
            if let file = tls.certificateFile { add(.tlsCertificateFile, .text(file)) }
            if let file = tls.keyFile { add(.tlsKeyFile, .text(file)) }
        }
        add(.gateway, .text(bridge.gateway))
        add(.baseTopic, .text(bridge.baseTopic))
        add(.adapters, .texts(bridge.adapters))
        add(.adapterSlots, .number(Double(bridge.adapterSlots)))
        add(.acquireNotify, .flag(bridge.acquireNotify))
        add(.operationTimeout, .number(bridge.gattOperationTimeout / .seconds(1)))

        add(.autoConnect, .word(bridge.autoConnect.name))
        switch bridge.autoConnect {
        case .all, .none: break
        case .allowList(let addresses), .adopted(let addresses): add(.allow, .texts(addresses.sorted()))
        }
        add(.aliases, .mapping(bridge.aliases))
        add(.deviceNames, .mapping(bridge.deviceOptions.compactMapValues(\.name)))
        let entities = bridge.deviceOptions.flatMap { address, options in
            options.entities.map { ("\(address)/\($0.key)", $0.value.rawValue) }
        }
        add(.deviceEntities, .mapping(Dictionary(uniqueKeysWithValues: entities)))
        add(.deviceStreaming, .mapping(bridge.deviceOptions.filter { !$0.value.streaming }.mapValues { _ in "off" }))
        let intervals = bridge.deviceOptions.flatMap { address, options in
            options.intervalsInSeconds.map { ("\(address)/\($0.key)", $0.value) }
        }
        add(.deviceIntervals, .mapping(Dictionary(uniqueKeysWithValues: intervals)))
        for family in FamilySettingsStore.sections.map(\.family) {
            guard let section = bridge.families.settings(of: family) else {
                add(entry: family.rawValue, .mapping([:]))
                continue
            }
            for setting in section.effective { add(.family(family, setting.path), setting.value) }
        }
        add(.logLevel, .word(logLevel.rawValue))
        add(.logLevelMQTT, .word(logLevelMQTT?.rawValue ?? "off"))
        add(.payloadSizeLimit, .number(Double(bridge.payloadSizeLimit)))
        add(.healthInterval, .number(bridge.healthInterval / .seconds(1)))
        if let file = bridge.healthFile { add(.healthFile, .text(file)) }
        if let folder = bridge.stateDirectory { add(.stateDirectory, .text(folder)) }
        add(.commandRate, .number(bridge.commandRate.perSecond))
        add(.commandBurst, .number(Double(Int(bridge.commandRate.burst))))
        add(.restartHoldOff, .number(Double(bridge.restartHoldOff.components.seconds)))
        add(.privilegedRequests, .word(bridge.privilegedRequests.rawValue))
        add(.homeAssistantEnabled, .flag(bridge.homeAssistant.enabled))
        add(.homeAssistantPrefix, .text(bridge.homeAssistant.discoveryPrefix))
        add(.homeAssistantFastStreams, .flag(bridge.homeAssistant.fastStreams))
        add(.homeAssistantDiscovery, .word(bridge.homeAssistant.discovery.rawValue))
        add(.fleetEnabled, .word(bridge.fleet.map { $0.joining == .always ? "true" : "auto" } ?? "false"))
        if let fleet = bridge.fleet {
            add(.fleetRefreshSeconds, .number(fleet.refreshInterval / .seconds(1)))
            add(.fleetIncarnationFile, .text(fleet.incarnationFile))
        }
        guard let http else {
            add(entry: "http", .unset("(off)"))
            return settings
        }
        add(.httpListen, .text(http.listen))
        if let user = http.username { add(.httpUsername, .text(user)) }
        if let file = httpPasswordFile { add(.httpPasswordFile, .text(file)) }
        if let file = httpPasswordHashFile { add(.httpPasswordHashFile, .text(file)) }
        if let file = httpTokenFile { add(.httpTokenFile, .text(file)) }
        if !http.hosts.isEmpty { add(.httpHosts, .texts(http.hosts)) }
        add(.httpMaxConnections, .number(Double(http.maxConnections)))
        add(.httpMaxConnectionsPerSource, .number(Double(http.maxConnectionsPerSource)))
        return settings
    }

    private var brokerURL: String {
        let host = bridge.mqtt.host.contains(":") ? "[\(bridge.mqtt.host)]" : bridge.mqtt.host
        return "\(bridge.mqtt.tls == nil ? "mqtt" : "mqtts")://\(host):\(bridge.mqtt.port)"
    }
}
