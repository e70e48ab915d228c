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
    /// The configuration file read, if any.
    public var file: String?
    /// The live page and `/metrics`; nil when off (the default).
    public var http: HTTPOptions?
    var passwordSource: PasswordSource?
    var gripProfileFile: String?
    var httpPasswordFile: String?
    var httpTokenFile: String?

    public var description: String { yaml() }
    public var debugDescription: String { yaml() }
    public var customMirror: Mirror { Mirror(self, children: ["configuration": yaml()], displayStyle: .struct) }

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
        switch bridge.autoConnect {
        case .all: add(1, "auto_connect: all")
        case .none: add(1, "auto_connect: none")
        case .allowList(let addresses):
            add(1, "auto_connect: allowed")
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
        add(0, "belt: {}")

        let a5 = bridge.activ5
        add(0, "a5:")
        add(1, "squeeze_newtons: \(number(a5.squeeze.pressedNewtons))")
        add(1, "release_newtons: \(number(a5.squeeze.releasedNewtons))")
        add(1, "double_squeeze_s: \(number(a5.squeeze.windowSeconds))")
        add(1, "keepalive_s: \(number(seconds(a5.keepAliveInterval)))")
        add(1, "reconnect: \(a5.reconnect ? "auto" : "manual")")
        add(1, "battery_s: \(number(seconds(a5.batteryInterval)))")

        let cpr = bridge.cprBand
        add(0, "cpr:")
        add(1, "angle_samples: \(cpr.angleSamples)")
        add(1, "range_mm: [\(cpr.targetRange.minMillimetres), \(cpr.targetRange.maxMillimetres)]")
        add(1, "rate_window_s: \(number(cpr.rateWindowSeconds))")
        add(1, "battery_s: \(number(seconds(cpr.batteryInterval)))")
        add(1, "signal_s: \(number(seconds(cpr.signalInterval)))")
        add(1, "distance:")
        if let reference = cpr.distance.referencePowerDBm { add(2, "reference_dbm: \(number(reference))") }
        add(2, "exponent: \(number(cpr.distance.exponent))")

        add(0, "grip:")
        if let gripProfileFile {
            add(1, "profile: \(quoted(gripProfileFile))")
        } else {
            add(1, "# profile: (built in)")
        }
        add(0, "log_level: \(logLevel.rawValue)")
        add(0, "payload_size_limit: \(bridge.payloadSizeLimit)")
        add(0, "health_s: \(number(bridge.healthInterval / .seconds(1)))")
        add(0, "limits:")
        add(1, "command_rate: \(number(bridge.commandRate.perSecond))")
        add(1, "command_burst: \(Int(bridge.commandRate.burst))")
        add(0, "fleet:")
        add(1, "enabled: \(bridge.fleet != nil)")
        if let fleet = bridge.fleet {
            add(1, "refresh_s: \(number(fleet.refreshInterval / .seconds(1)))")
            add(1, "incarnation_file: \(quoted(fleet.incarnationFile))")
        }
        if let http {
            add(0, "http:")
            add(1, "listen: \(quoted(http.listen))")
            if let user = http.username { add(1, "username: \(quoted(user))") }
            if let file = httpPasswordFile { add(1, "password_file: \(quoted(file))") }
            if let file = httpTokenFile { add(1, "token_file: \(quoted(file))") }
        } else {
            add(0, "# http: (off)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private var brokerURL: String {
        let host = bridge.mqtt.host.contains(":") ? "[\(bridge.mqtt.host)]" : bridge.mqtt.host
        return "\(bridge.mqtt.tls == nil ? "mqtt" : "mqtts")://\(host):\(bridge.mqtt.port)"
    }
}

/// A YAML double-quoted scalar (JSON's escapes are valid there).
private func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20 || scalar.value == 0x7F:
            result +=
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                + String(scalar.value, radix: 16)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// `20` rather than `20.0`; other values as Swift prints them.
func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}

private func seconds(_ duration: Duration) -> Double {
    let (whole, attoseconds) = duration.components
    return Double(whole) + Double(attoseconds) / 1e18
}
