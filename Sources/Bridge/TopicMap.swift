/// Every topic the bridge uses, in one place (topics.md is the contract for users).
public struct TopicMap: Sendable {
    /// The gateway's name, in `gatt2mqtt/<gateway>/…`.
    public var gateway: String

    public init(gateway: String) { self.gateway = gateway }

    /// `gatt2mqtt/<gateway>/status`: retained `online`, with `offline` as the will.
    public var status: String { "gatt2mqtt/\(gateway)/status" }

    /// The subscription for gateway requests, `gatt2mqtt/<gateway>/request/+`.
    public var requestFilter: String { "gatt2mqtt/\(gateway)/request/+" }

    /// `gatt2mqtt/<gateway>/response/<name>`, where a request is answered without an MQTT 5 response topic.
    public func response(_ name: String) -> String { "gatt2mqtt/\(gateway)/response/\(name)" }

    /// Devices seen during a scan.
    public var scan: String { "gatt2mqtt/\(gateway)/scan" }

    /// The periodic health report.
    public var health: String { "gatt2mqtt/\(gateway)/health" }
    /// Retained: `powered`, `off`, `missing` or `unauthorized`, for the gateway's adapters together
    /// (`powered` when one of them is).
    public var adapter: String { "gatt2mqtt/\(gateway)/adapter" }
    /// Retained: the same for one adapter.
    public func adapter(_ name: String) -> String { "gatt2mqtt/\(gateway)/adapter/\(name)" }

    /// The retained inventory.
    public var devices: String { "gatt2mqtt/\(gateway)/devices" }

    /// The request name of `gatt2mqtt/<gateway>/request/<name>`; nil for any other topic.
    public func parseRequest(_ topic: String) -> String? {
        let prefix = "gatt2mqtt/\(gateway)/request/"
        guard topic.hasPrefix(prefix) else { return nil }
        let name = String(topic.dropFirst(prefix.count))
        return name.isEmpty || name.contains("/") ? nil : name
    }

    /// `<family>/<id>/<leaf>`, e.g. `belt/aabbccddeeff/heading`.
    public func device(_ family: DeviceFamily, _ id: String, _ leaf: String) -> String {
        "\(family.rawValue)/\(id)/\(leaf)"
    }

    /// The subscription that receives every command of a family.
    public func commandFilter(_ family: DeviceFamily) -> String { "\(family.rawValue)/+/cmd/+" }

    /// Every device's retained `info` of a family, read at start to find state an earlier run left behind.
    public func infoFilter(_ family: DeviceFamily) -> String { "\(family.rawValue)/+/info" }

    /// Splits `<family>/<id>/info`; nil for anything else.
    public func parseInfo(_ topic: String) -> (family: DeviceFamily, id: String)? {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == "info", let family = DeviceFamily(rawValue: String(parts[0])), !parts[1].isEmpty else { return nil }
        return (family, String(parts[1]))
    }

    /// The default reply topic when a command carries no MQTT 5 response topic.
    public func reply(_ family: DeviceFamily, _ id: String) -> String { device(family, id, "reply") }

    /// Splits `<family>/<id>/cmd/<name>`; nil for anything else.
    public func parseCommand(_ topic: String) -> (family: DeviceFamily, id: String, command: String)? {
        let parts = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[2] == "cmd", let family = DeviceFamily(rawValue: String(parts[0])),
            !parts[1].isEmpty, !parts[3].isEmpty
        else { return nil }
        return (family, String(parts[1]), String(parts[3]))
    }

    /// Gateway names become topic levels: keep them to a safe alphabet.
    public static func isValidGatewayName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { CharacterSet.gatewayName.contains($0) }
    }
}

/// The device families the bridge speaks to; the raw value is the topic prefix.
public enum DeviceFamily: String, Sendable, CaseIterable {
    case belt
    case a5
    case cpr
    case grip
}

import Foundation

extension CharacterSet {
    fileprivate static let gatewayName = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
}
