import Locks

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The retained `gatt2mqtt/<gateway>/info`: what a fleet's operator needs to know of a gateway without a shell on
/// it: its version, when it started, the settings in effect (secrets as `set`/`unset`), its adapters and its part
/// in a fleet. Published once the gateway is online and again whenever one of them changes, never twice alike.
final class GatewayInfo: Sendable {
    private let context: GatewayContext
    private let statuses: AdapterStatusBoard
    private let coordinator: FleetCoordinator?
    private let started: String
    private let lastPublished = Mutex<String?>(nil)

    init(context: GatewayContext, statuses: AdapterStatusBoard, coordinator: FleetCoordinator?, started: Date) {
        self.context = context
        self.statuses = statuses
        self.coordinator = coordinator
        // ISO 8601 in UTC to the second, as `last_seen`.
        self.started = started.formatted(.iso8601)
    }

    /// Publishes the info if it changed since last time (retained, QoS 1).
    func refresh() {
        let text = payload.text
        let changed = lastPublished.withLock { last in
            defer { last = text }
            return last != text
        }
        if changed { context.publisher.publish(.state(context.topics.gatewayTopic("info"), text)) }
    }

    var payload: JSONValue {
        var members: [String: JSONValue] = [
            "gateway": .string(context.configuration.gateway),
            "version": .string(Gatt2MQTTVersion.current),
            "started": .string(started),
            "adapters": .object(statuses.all.mapValues { .string($0.rawValue) }),
            "fleet": .string(fleetRole),
            "privileged_requests": .bool(context.configuration.takesPrivilegedRequests),
        ]
        if let settings = context.live.settingsInEffect { members["settings"] = settings }
        // What an operator should act on; absent when there is nothing.
        if let warning = context.configuration.privilegedRequestsWarning {
            members["warnings"] = .array([.string(warning)])
        }
        return .object(members)
    }

    /// `off` without a fleet; else what the gateway knows of the others (docs/fleet-ownership.md, "Alone, and
    /// joining"): `deciding` until its own retained status came back, then `alone` or `member`.
    private var fleetRole: String {
        switch coordinator?.presence {
        case nil: "off"
        case .unknown: "deciding"
        case .alone: "alone"
        case .inFleet: "member"
        }
    }
}
