import Bridge
import Logging
import MQTT
import Peripherals
import WebUI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns merged settings into a checked configuration: the one place defaults are filled in and
/// every value is checked, with errors naming the setting as the user wrote it.
struct ConfigurationResolver {
    let settings: Settings
    /// The default gateway name is derived from it.
    let hostName: String
    /// The folder systemd made for the unit (`StateDirectory=`, passed as `STATE_DIRECTORY`): the default state directory.
    var systemdStateDirectory: String? = nil

    static let defaultBroker = "mqtt://127.0.0.1:1883"
    static let defaultAdapter = "hci0"
    static let defaultStateDirectory = "/var/lib/gatt2mqtt"

    func resolve(file: String?) throws(ConfigurationError) -> LoadedConfiguration {
        let logLevel = try resolveLogLevel()
        let logLevelMQTT = try resolveLogLevelMQTT()
        let gateway = text(.gateway) ?? Self.defaultGateway(hostName: hostName)
        guard TopicMap.isValidGatewayName(gateway) else {
            throw fail(.gateway, "must be 1 to 64 letters, digits, '-' or '_' (it is a topic level), not '\(gateway)'")
        }
        let adapters = try resolveAdapters()
        let (mqtt, passwordSource) = try resolveBroker(gateway: gateway)
        var bridge = BridgeConfiguration(mqtt: mqtt, adapters: adapters, gateway: gateway)
        if let base = text(.baseTopic) {
            try checkTopicLevels(.baseTopic, base)
            bridge.baseTopic = base
        }
        if let slots = try integer(.adapterSlots) { bridge.adapterSlots = slots }
        bridge.acquireNotify = try boolean(.acquireNotify, default: true)
        if let seconds = try finite(.operationTimeout) {
            bridge.gattOperationTimeout = .milliseconds(Int(seconds * 1000))
        }
        bridge.autoConnect = try resolveAutoConnect()
        bridge.aliases = try resolveAliases()
        bridge.families = try resolveFamilies()
        bridge.deviceOptions = try resolveDeviceOptions(
            entityObjects: DeviceOptions.entityObjects(with: bridge), intervalSettings: DeviceOptions.intervalSettings)
        if let limit = try integer(.payloadSizeLimit) { bridge.payloadSizeLimit = limit }
        bridge.fleet = try resolveFleet()
        bridge.homeAssistant = try resolveHomeAssistant()
        let http = try resolveHTTP()
        bridge.livePageURL = http?.linkURL
        if let seconds = try finite(.healthInterval) { bridge.healthInterval = .milliseconds(Int(seconds * 1000)) }
        bridge.healthFile = text(.healthFile)
        bridge.stateDirectory = stateFolder
        if let seconds = try integer(.sessionExpiry) { bridge.sessionExpirySeconds = UInt32(seconds) }
        bridge.replyTopics = try resolveReplyTopics()
        if let rate = try finite(.commandRate) { bridge.commandRate.perSecond = rate }
        if let burst = try integer(.commandBurst) { bridge.commandRate.burst = Double(burst) }
        if let seconds = try integer(.restartHoldOff) { bridge.restartHoldOff = .seconds(seconds) }
        if let word = try word(.privilegedRequests), let choice = PrivilegedRequests(rawValue: word) {
            bridge.privilegedRequests = choice
        }
        return LoadedConfiguration(
            bridge: bridge, logLevel: logLevel, logLevelMQTT: logLevelMQTT, file: file, http: http,
            passwordSource: passwordSource, httpPasswordFile: text(.httpPasswordFile),
            httpPasswordHashFile: text(.httpPasswordHashFile), httpTokenFile: text(.httpTokenFile),
            declarationsFolder: text(.declarations) ?? DeclarationCatalog.defaultFolder)
    }

    // MARK: - Sections

    /// `adapter` (one name; the environment's may list several, comma-separated) or `adapters` (a list,
    /// also `--adapter` repeated): the one from the stronger source; both from the same source is a contradiction.
    private func resolveAdapters() throws(ConfigurationError) -> [String] {
        let single = settings[.adapter]
        let several = settings[.adapters]
        if let single, let several, single.source == several.source {
            throw fail(.adapters, "and \(single.name) both name adapters: use one of them")
        }
        let key: ConfigurationKey
        let names: [String]
        if let several, several.source >= (single?.source ?? .file) {
            key = .adapters
            names = list(.adapters)
        } else if let text = text(.adapter) {
            key = .adapter
            names =
                settings[.adapter]?.source == .environment
                ? text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimming() }
                : [text]
        } else {
            return [Self.defaultAdapter]
        }
        guard !names.isEmpty else { throw fail(key, "must name at least one adapter") }
        for name in names {
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw fail(key, "must be a BlueZ adapter name such as hci0, not '\(name)'")
            }
        }
        guard Set(names).count == names.count else {
            throw fail(key, "names an adapter twice: \(names.joined(separator: ", "))")
        }
        return names
    }

    /// `http.listen` turns the live page on; its credentials count only then. Basic authentication needs
    /// both the user name and the password file; a token file gives a bearer token.
    private func resolveHTTP() throws(ConfigurationError) -> HTTPOptions? {
        guard let listen = text(.httpListen) else { return nil }
        var options: HTTPOptions
        do {
            options = try HTTPOptions(listen: listen)
        } catch {
            throw fail(.httpListen, error.description)
        }
        if text(.httpPasswordFile) != nil, text(.httpPasswordHashFile) != nil {
            throw fail(
                .httpPasswordHashFile, "and \(name(.httpPasswordFile)) both give the page's password: use one of them")
        }
        let passwordKey: ConfigurationKey =
            text(.httpPasswordHashFile) != nil ? .httpPasswordHashFile : .httpPasswordFile
        switch (text(.httpUsername), text(passwordKey)) {
        case (let user?, let path?):
            guard !user.isEmpty, !user.contains(":") else {
                throw fail(.httpUsername, "must be non-empty and without ':'")
            }
            options.username = user
            if passwordKey == .httpPasswordHashFile {
                options.passwordHash = try bcryptHash(path)
            } else {
                options.password = try secret(.httpPasswordFile, path)
            }
        case (nil, nil): break
        case (nil, _?): throw fail(passwordKey, "needs \(name(.httpUsername)) too")
        case (_?, nil):
            throw fail(.httpUsername, "needs \(name(.httpPasswordFile)) or \(name(.httpPasswordHashFile)) too")
        }
        if let path = text(.httpTokenFile) { options.token = try secret(.httpTokenFile, path) }
        // The page sends commands, pairs and forgets: beyond this machine, only for whoever holds the credentials.
        guard options.isLoopback || options.username != nil || options.token != nil else {
            throw fail(
                .httpListen,
                "\(options.listen) is reachable beyond this machine: give the page credentials (\(name(.httpUsername)) with "
                    + "\(name(.httpPasswordFile)), or \(name(.httpTokenFile))), or listen on 127.0.0.1")
        }
        if let limit = try integer(.httpMaxConnections) { options.maxConnections = limit }
        if let limit = try integer(.httpMaxConnectionsPerSource) {
            guard (1...options.maxConnections).contains(limit) else {
                throw fail(
                    .httpMaxConnectionsPerSource,
                    "must be from 1 to \(name(.httpMaxConnections)) (\(options.maxConnections)), not \(limit)")
            }
            options.maxConnectionsPerSource = limit
        } else {
            options.maxConnectionsPerSource = min(options.maxConnectionsPerSource, options.maxConnections)
        }
        options.hosts = list(.httpHosts)
        for host in options.hosts
        where host.isEmpty || !host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
            throw fail(.httpHosts, "must be host names (letters, digits, '.', '-'), not '\(host)'")
        }
        return options
    }

    /// `http.password_hash_file`: one bcrypt hash, as `htpasswd -nbBC 12 "" PASSWORD | cut -d: -f2` prints it.
    private func bcryptHash(_ path: String) throws(ConfigurationError) -> String {
        let hash = try secret(.httpPasswordHashFile, path)
        guard BcryptPassword.isHash(hash) else {
            throw fail(
                .httpPasswordHashFile,
                "\(path) does not hold a bcrypt hash ($2a$, $2b$ or $2y$ with a cost from \(BcryptPassword.costs.lowerBound) to "
                    + "\(BcryptPassword.costs.upperBound), 60 characters): make one with htpasswd -nbBC 12 \"\" PASSWORD | cut -d: -f2"
            )
        }
        return hash
    }

    /// A file's text without its line ends; never empty.
    private func secret(_ key: ConfigurationKey, _ path: String) throws(ConfigurationError) -> String {
        var text = String(decoding: try read(key, path), as: UTF8.self)
        // By scalars: "\r\n" is one Character, which hasSuffix("\n") does not match.
        while let last = text.unicodeScalars.last, last == "\n" || last == "\r" { text.unicodeScalars.removeLast() }
        guard !text.isEmpty else { throw fail(key, "\(path) is empty") }
        return text
    }

    /// `homeassistant.enabled` and the discovery prefix Home Assistant's MQTT integration is set to.
    private func resolveHomeAssistant() throws(ConfigurationError) -> HomeAssistantOptions {
        var options = HomeAssistantOptions()
        options.enabled = try boolean(.homeAssistantEnabled, default: true)
        options.fastStreams = try boolean(.homeAssistantFastStreams, default: false)
        options.discovery = try word(.homeAssistantDiscovery).flatMap(HomeAssistantDiscoveryMode.init) ?? .device
        if let prefix = text(.homeAssistantPrefix) {
            // Unlike the base topic, the prefix cannot be empty: discovery topics start with it.
            try checkTopicLevels(.homeAssistantPrefix, prefix, allowingNone: false)
            options.discoveryPrefix = prefix
        }
        return options
    }

    /// `broker.reply_topics`: topic filters, as a broker reads them, where an MQTT 5 response topic is taken besides
    /// the gateway's own reply topics; an empty list leaves only those.
    private func resolveReplyTopics() throws(ConfigurationError) -> [TopicFilter] {
        guard settings[.replyTopics] != nil else { return ReplySpace.defaultFilters }
        var filters: [TopicFilter] = []
        for text in list(.replyTopics) {
            guard let filter = TopicFilter(text) else {
                throw fail(
                    .replyTopics,
                    "must be MQTT topic filters ('+' and '#' only as whole levels, '#' last), not '\(text)'")
            }
            filters.append(filter)
        }
        return filters
    }

    /// `state_directory`, else the first of systemd's `StateDirectory`, else /var/lib/gatt2mqtt.
    private var stateFolder: String { Self.stateFolder(setting: text(.stateDirectory), systemd: systemdStateDirectory) }

    static func stateFolder(setting: String?, systemd: String?) -> String {
        setting ?? systemd.flatMap { $0.split(separator: ":").first.map(String.init) } ?? defaultStateDirectory
    }

    /// `fleet.enabled`: `auto` (the default) follows the fleet's rules while another gateway is online, `true`
    /// always, `false` never (its other keys count only then; an example file may hold them).
    private func resolveFleet() throws(ConfigurationError) -> FleetOptions? {
        var options = FleetOptions()
        let enabled: Bool
        switch try word(.fleetEnabled) {
        case "true": (enabled, options.joining) = (true, .always)
        case "false": enabled = false
        default: (enabled, options.joining) = (true, .whenOthersOnline)
        }
        if let seconds = try finite(.fleetRefreshSeconds) {
            options.refreshInterval = .milliseconds(Int(seconds * 1000))
        }
        // The incarnation is state like the adoptions: unless a path is given it lives beside them, so a gateway given
        // a state directory of its own (a second one on the host, a test, the bench) keeps its own counter. Under
        // systemd the folder is /var/lib/gatt2mqtt: the path it always had.
        options.incarnationFile = FleetOptions.incarnationFile(in: stateFolder)
        // The default path, even written out (as the example file does), may give way to the clock (`Incarnation`).
        if let file = text(.fleetIncarnationFile) {
            (options.incarnationFile, options.incarnationFileChosen) = (
                file,
                file != FleetOptions.defaultIncarnationFile && file != FleetOptions.incarnationFile(in: stateFolder)
            )
        }
        return enabled ? options : nil
    }

    private func resolveLogLevel() throws(ConfigurationError) -> Logger.Level {
        try word(.logLevel).flatMap(Logger.Level.init(rawValue:)) ?? .info
    }

    /// `log_level_mqtt`: a level, or `off`; warning by default, so that the log topic carries what
    /// `journalctl -p warning` shows.
    private func resolveLogLevelMQTT() throws(ConfigurationError) -> Logger.Level? {
        guard let word = try word(.logLevelMQTT) else { return .warning }
        return Logger.Level(rawValue: word)
    }

    private func resolveBroker(gateway: String) throws(ConfigurationError) -> (MQTTConfiguration, PasswordSource?) {
        let url = text(.brokerURL) ?? Self.defaultBroker
        let clientID = text(.clientID) ?? "gatt2mqtt-\(gateway)"
        guard !clientID.isEmpty, clientID.utf8.count <= 65535, !clientID.contains("\0") else {
            throw fail(.clientID, "must be a non-empty MQTT client identifier")
        }
        var mqtt: MQTTConfiguration
        do {
            mqtt = try MQTTConfiguration(url: url, clientID: clientID)
        } catch let error as MQTTError {
            // The URL as the error shows it: without the password someone wrote into it.
            guard case .invalidURL(let shown, let reason) = error else { throw fail(.brokerURL, "\(error)") }
            throw fail(.brokerURL, "'\(shown)' is not a broker URL: \(reason)")
        } catch {
            throw fail(.brokerURL, "\(error)")
        }
        // `311` is an undocumented spelling earlier releases took.
        mqtt.protocolVersion = try word(.protocolVersion, synonyms: ["311": "3.1.1"]) == "3.1.1" ? .v311 : .v5
        if let keepAlive = try integer(.keepAlive) { mqtt.keepAlive = keepAlive }
        if let username = text(.username) {
            guard !username.isEmpty else { throw fail(.username, "must not be empty") }
            mqtt.username = username
        }
        var passwordSource: PasswordSource?
        if case .secret(let secret)? = settings[.password]?.value {
            mqtt.password = secret.value
            passwordSource = .environment(name(.password))
        } else if let path = text(.passwordFile) {
            mqtt.password = try secret(.passwordFile, path)
            passwordSource = .file(path)
        }
        if mqtt.password != nil, mqtt.username == nil, mqtt.protocolVersion == .v311 {
            let key: ConfigurationKey = settings[.password] != nil ? .password : .passwordFile
            throw fail(key, "MQTT 3.1.1 sends a password only with a user name: set \(name(.username))")
        }
        mqtt.tls = try resolveTLS(url: url, plain: mqtt.tls == nil)
        return (mqtt, passwordSource)
    }

    private func resolveTLS(url: String, plain: Bool) throws(ConfigurationError) -> MQTTTLSConfiguration? {
        let files: [ConfigurationKey] = [.tlsCAFile, .tlsCertificateFile, .tlsKeyFile]
        guard let first = files.first(where: { settings[$0] != nil }) else {
            return plain ? nil : MQTTTLSConfiguration()
        }
        guard !plain else {
            throw fail(first, "needs an mqtts:// broker, but \(name(.brokerURL)) is '\(url)'")
        }
        if (settings[.tlsCertificateFile] == nil) != (settings[.tlsKeyFile] == nil) {
            let missing: ConfigurationKey = settings[.tlsKeyFile] == nil ? .tlsKeyFile : .tlsCertificateFile
            let given: ConfigurationKey = missing == .tlsKeyFile ? .tlsCertificateFile : .tlsKeyFile
            throw fail(given, "needs \(missing.rawValue) too")
        }
        for key in files {
            if let path = text(key) { _ = try read(key, path) }
        }
        return MQTTTLSConfiguration(
            caFile: text(.tlsCAFile), certificateFile: text(.tlsCertificateFile), keyFile: text(.tlsKeyFile))
    }

    /// `adopted` by default; `allow` implies `allowed`, unless a source of higher precedence sets `auto_connect` (so
    /// `--auto-connect all` overrides a file's allow list), and `adopted` takes the allow list as adopted devices;
    /// `none` with addresses of the same source is a contradiction.
    private func resolveAutoConnect() throws(ConfigurationError) -> AutoConnectPolicy {
        var addresses: Set<String> = []
        for address in list(.allow) {
            guard let normalized = Self.normalizedAddress(address) else {
                throw fail(.allow, "'\(address)' is not a Bluetooth address (AA:BB:CC:DD:EE:FF)")
            }
            addresses.insert(normalized)
        }
        guard let mode = try word(.autoConnect), let modeSource = settings[.autoConnect]?.source else {
            return addresses.isEmpty ? .adopted([]) : .allowList(addresses)
        }
        if mode == "allowed" { return .allowList(addresses) }
        if mode == "adopted" { return .adopted(addresses) }
        guard let allowSource = settings[.allow]?.source, !addresses.isEmpty, allowSource >= modeSource else {
            return mode == "all" ? .all : .none
        }
        if mode == "none", allowSource == modeSource {
            throw fail(.allow, "lists addresses, but \(name(.autoConnect)) is none (use allowed)")
        }
        return .allowList(addresses)
    }

    private func resolveAliases() throws(ConfigurationError) -> [String: String] {
        var aliases: [String: String] = [:]
        var owners: [String: String] = [:]
        let name = name(.aliases)
        for (address, alias) in map(.aliases).sorted(by: { $0.key < $1.key }) {
            let key = "\(name).\(address)"
            guard let normalized = Self.normalizedAddress(address) else {
                throw ConfigurationError(
                    key: key, message: "'\(address)' is not a Bluetooth address (AA:BB:CC:DD:EE:FF)")
            }
            guard aliases[normalized] == nil else {
                throw ConfigurationError(key: key, message: "\(normalized) has an alias already")
            }
            guard Self.isValidAlias(alias) else {
                throw ConfigurationError(
                    key: key,
                    message: "must be 1 to 64 lower-case letters, digits, '-' or '_' (it replaces the address in "
                        + "topics), not '\(alias)'")
            }
            guard !DeviceID.looksLikeAddressID(alias) else {
                throw ConfigurationError(
                    key: key,
                    message: "'\(alias)' looks like a device id (12 hex digits), which another device may have")
            }
            if let owner = owners[alias] {
                throw ConfigurationError(key: key, message: "'\(alias)' is the alias of \(owner) already")
            }
            aliases[normalized] = alias
            owners[alias] = normalized
        }
        return aliases
    }

    // MARK: - Values

    func name(_ key: ConfigurationKey) -> String { settings.name(key) }

    private func fail(_ key: ConfigurationKey, _ message: String) -> ConfigurationError {
        ConfigurationError(key: name(key), message: message)
    }

    private func text(_ key: ConfigurationKey) -> String? { settings.text(key) }

    /// A switch (`true` or `false`, as written), `fallback` when unset.
    private func boolean(_ key: ConfigurationKey, default fallback: Bool) throws(ConfigurationError) -> Bool {
        try word(key).map { $0 == "true" } ?? fallback
    }

    /// The key's word, checked against its rule (`SettingRule.oneOf`); in lower case where the rule ignores case.
    /// `synonyms` are other spellings of a word, taken as it.
    private func word(_ key: ConfigurationKey, synonyms: [String: String] = [:]) throws(ConfigurationError) -> String? {
        guard let given = text(key) else { return nil }
        let text = synonyms[given] ?? given
        if let refusal = key.rule.refusal(text) { throw fail(key, refusal) }
        if case .oneOf(_, ignoringCase: true) = key.rule { return text.lowercased() }
        return text
    }

    /// A topic prefix: levels without wildcards, empty ones or a leading `$` (`allowingNone`: or no prefix at all).
    private func checkTopicLevels(_ key: ConfigurationKey, _ value: String, allowingNone: Bool = true)
        throws(ConfigurationError)
    {
        guard (allowingNone || !value.isEmpty) && TopicMap.isValidBaseTopic(value) else {
            throw fail(key, "must be topic levels without '+', '#', empty levels or a leading '$', not '\(value)'")
        }
    }

    /// The key's whole number, checked against its rule (`SettingRule.range`).
    private func integer(_ key: ConfigurationKey) throws(ConfigurationError) -> Int? {
        guard let value = settings.integer(key) else { return nil }
        if let refusal = key.rule.refusal(Double(value)) { throw fail(key, refusal) }
        return value
    }

    /// The key's number, finite and checked against its rule (`SettingRule.range`).
    private func finite(_ key: ConfigurationKey) throws(ConfigurationError) -> Double? {
        guard let value = settings.number(key) else { return nil }
        guard value.isFinite else { throw fail(key, "must be a finite number") }
        if let refusal = key.rule.refusal(value) { throw fail(key, refusal) }
        return value
    }

    private func list(_ key: ConfigurationKey) -> [String] { settings.list(key) ?? [] }

    func map(_ key: ConfigurationKey) -> [String: String] { settings.map(key) ?? [:] }

    /// The contents of a file the configuration names; errors say which file and why.
    private func read(_ key: ConfigurationKey, _ path: String) throws(ConfigurationError) -> Data {
        try Self.read(path, name: name(key))
    }

    static func read(_ path: String, name: String) throws(ConfigurationError) -> Data {
        switch ConfigurationFileContents.read(path) {
        case .success(let data): return data
        case .failure(let failure):
            throw ConfigurationError(key: name, message: "cannot read \(path): \(failure.reason)")
        }
    }

    // MARK: - Rules

    /// `AA:BB:CC:DD:EE:FF` in upper case, as BlueZ and `AutoConnectPolicy` spell addresses.
    static func normalizedAddress(_ text: String) -> String? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return text.uppercased()
    }

    static func isValidAlias(_ alias: String) -> Bool { TopicMap.isValidDeviceID(alias) }

    /// The host name, reduced to the characters a topic level may safely hold.
    static func defaultGateway(hostName: String) -> String {
        let host = hostName.split(separator: ".").first.map(String.init) ?? "gateway"
        let cleaned = String(
            host.unicodeScalars.map {
                TopicMap.isGatewayNameCharacter($0) ? Character($0) : "_"
            })
        return cleaned.isEmpty ? "gateway" : cleaned
    }
}
