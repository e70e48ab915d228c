import Bridge
import Logging
import MQTT
import WebUI

/// Where the broker password came from: shown instead of the password.
enum PasswordSource: Sendable, Equatable {
    /// `GATT2MQTT_MQTT_PASSWORD`.
    case environment(String)
    /// `broker.password_file`.
    case file(String)
}

/// The configuration in effect, checked.
///
/// Its description (and debug description, and mirror) is the configuration as YAML in the file's
/// own keys, with the password left out: safe to log, and a starting point for a file.
public struct LoadedConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Everything the bridge needs.
    public var bridge: BridgeConfiguration
    /// The level to log at.
    public var logLevel: Logger.Level
    /// The level from which log lines go to `gatt2mqtt/<gateway>/log`; nil for none (`off`).
    public var logLevelMQTT: Logger.Level?
    /// The configuration file read, if any.
    public var file: String?
    /// The live page and `/metrics`; nil when off (the default).
    public var http: HTTPOptions?
    var passwordSource: PasswordSource?
    var httpPasswordFile: String?
    var httpPasswordHashFile: String?
    var httpTokenFile: String?

    public var description: String { yaml() }
    public var debugDescription: String { yaml() }
    public var customMirror: Mirror { Mirror(self, children: ["configuration": yaml()], displayStyle: .struct) }

    /// Every secret the configuration holds (the broker's password, the page's password and token): texts no log
    /// line that leaves the machine may carry (`LogTap` replaces them).
    public var secrets: [String] {
        [bridge.mqtt.password, http?.password, http?.token].compactMap { $0 }.filter { !$0.isEmpty }
    }

    private func yaml() -> String {
        let mqtt = bridge.mqtt
        var lines = ["# gatt2mqtt configuration in effect" + (file.map { " (file: \($0))" } ?? "")]
        func add(_ indent: Int, _ text: String) { lines.append(String(repeating: "  ", count: indent) + text) }

        add(0, "broker:")
        add(1, "url: \(quoted(brokerURL))")
        add(1, "client_id: \(quoted(mqtt.clientID))")
        add(1, "protocol: \(mqtt.protocolVersion == .v5 ? "5" : "3.1.1")")
        add(1, "keepalive_s: \(mqtt.keepAlive)")
        add(1, "session_expiry_s: \(bridge.sessionExpirySeconds)")
        add(1, "reply_topics: [" + bridge.replyTopics.map { quoted($0.text) }.joined(separator: ", ") + "]")
        if let username = mqtt.username { add(1, "username: \(quoted(username))") }
        switch passwordSource {
        case .file(let path): add(1, "password_file: \(quoted(path))")
        case .environment(let variable): add(1, "# password: <redacted> (from \(variable))")
        case nil: break
        }
        if let tls = mqtt.tls, tls.caFile != nil || tls.certificateFile != nil || tls.keyFile != nil {
            add(1, "tls:")
            if let file = tls.caFile { add(2, "ca_file: \(quoted(file))") }
            if let file = tls.certificateFile { add(2, "cert_file: \(quoted(file))") }
            if let file = tls.keyFile { add(2, "key_file: \(quoted(file))") }
        }
        add(0, "gateway:")
        add(1, "name: \(quoted(bridge.gateway))")
        add(0, "base_topic: \(quoted(bridge.baseTopic))")
        add(0, "adapters: [" + bridge.adapters.map(quoted).joined(separator: ", ") + "]")
        add(0, "adapter_slots: \(bridge.adapterSlots)")
        add(0, "bluez:")
        add(1, "acquire_notify: \(bridge.acquireNotify)")

        add(0, "devices:")
        add(1, "auto_connect: \(bridge.autoConnect.name)")
        switch bridge.autoConnect {
        case .all, .none: break
        case .allowList(let addresses), .adopted(let addresses):
            add(1, "allow: [" + addresses.sorted().map(quoted).joined(separator: ", ") + "]")
        }
        if bridge.aliases.isEmpty {
            add(1, "aliases: {}")
        } else {
            add(1, "aliases:")
            for (address, alias) in bridge.aliases.sorted(by: { $0.key < $1.key }) {
                add(2, "\(quoted(address)): \(quoted(alias))")
            }
        }
        for section in FamilySettingsStore.sections {
            addSection(of: section.family, add)
        }
        add(0, "log_level: \(logLevel.rawValue)")
        add(0, "log_level_mqtt: \(logLevelMQTT?.rawValue ?? "off")")
        add(0, "payload_size_limit: \(bridge.payloadSizeLimit)")
        add(0, "health_s: \(number(bridge.healthInterval / .seconds(1)))")
        if let file = bridge.healthFile { add(0, "health_file: \(quoted(file))") }
        if let folder = bridge.stateDirectory { add(0, "state_directory: \(quoted(folder))") }
        add(0, "limits:")
        add(1, "command_rate: \(number(bridge.commandRate.perSecond))")
        add(1, "command_burst: \(Int(bridge.commandRate.burst))")
        add(0, "homeassistant:")
        add(1, "enabled: \(bridge.homeAssistant.enabled)")
        add(1, "discovery_prefix: \(quoted(bridge.homeAssistant.discoveryPrefix))")
        add(1, "fast_streams: \(bridge.homeAssistant.fastStreams)")
        add(0, "fleet:")
        add(1, "enabled: \(bridge.fleet.map { $0.joining == .always ? "true" : "auto" } ?? "false")")
        if let fleet = bridge.fleet {
            add(1, "refresh_s: \(number(fleet.refreshInterval / .seconds(1)))")
            add(1, "incarnation_file: \(quoted(fleet.incarnationFile))")
        }
        if let http {
            add(0, "http:")
            add(1, "listen: \(quoted(http.listen))")
            if let user = http.username { add(1, "username: \(quoted(user))") }
            if let file = httpPasswordFile { add(1, "password_file: \(quoted(file))") }
            if let file = httpPasswordHashFile { add(1, "password_hash_file: \(quoted(file))") }
            if let file = httpTokenFile { add(1, "token_file: \(quoted(file))") }
            if !http.hosts.isEmpty { add(1, "hosts: [\(http.hosts.map(quoted).joined(separator: ", "))]") }
            add(1, "max_connections: \(http.maxConnections)")
            add(1, "max_connections_per_source: \(http.maxConnectionsPerSource)")
        } else {
            add(0, "# http: (off)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A family's section, `belt: {}` for one without settings; a key path with dots is nested mappings.
    private func addSection(of family: DeviceFamily, _ add: (Int, String) -> Void) {
        guard let settings = bridge.families.settings(of: family) else {
            add(0, "\(family.rawValue): {}")
            return
        }
        add(0, "\(family.rawValue):")
        var open: [Substring] = []
        for setting in settings.effective {
            var parts = setting.path.split(separator: ".")
            let leaf = parts.removeLast()
            let shared = zip(open, parts).prefix { $0 == $1 }.count
            open = Array(open.prefix(shared))
            for part in parts.dropFirst(shared) {
                add(1 + open.count, "\(part):")
                open.append(part)
            }
            let indent = 1 + open.count
            switch setting.value {
            case .number(let value): add(indent, "\(leaf): \(number(value))")
            case .word(let word): add(indent, "\(leaf): \(word)")
            case .text(let text): add(indent, "\(leaf): \(quoted(text))")
            case .integers(let values):
                add(indent, "\(leaf): [" + values.map(String.init).joined(separator: ", ") + "]")
            case .unset(let why): add(indent, "# \(leaf): \(why)")
            }
        }
    }

    private var brokerURL: String {
        let host = bridge.mqtt.host.contains(":") ? "[\(bridge.mqtt.host)]" : bridge.mqtt.host
        return "\(bridge.mqtt.tls == nil ? "mqtt" : "mqtts")://\(host):\(bridge.mqtt.port)"
    }
}

/// A YAML double-quoted scalar: JSON's escapes are valid there.
private func quoted(_ text: String) -> String { JSONValue.quoted(text) }

/// `20` rather than `20.0`; other values as Swift prints them.
func number(_ value: Double) -> String { EffectiveSetting.number(value) }
