import Synchronization

/// What this gateway has told Home Assistant: the gateway's config and each served device's, kept so
/// that they can be sent again when Home Assistant restarts and withdrawn when a device is forgotten.
/// Disabled (`homeassistant.enabled: false`), it tells Home Assistant nothing.
final class HomeAssistantAnnouncer: Sendable {
    private let discovery: HomeAssistantDiscovery
    private let publisher: BrokerPublisher
    private let enabled: Bool
    /// Devices announced, by object path.
    private let announced = Mutex<[String: HomeAssistantDiscovery.Device]>([:])

    init(discovery: HomeAssistantDiscovery, publisher: BrokerPublisher, enabled: Bool = true) {
        self.discovery = discovery
        self.publisher = publisher
        self.enabled = enabled
    }

    /// Where Home Assistant says it has started; nil while disabled, when that is nobody's business here.
    var statusTopic: String? { enabled ? discovery.statusTopic : nil }

    func announceGateway() {
        guard enabled else { return }
        for publication in discovery.gatewayConfigs() { publisher.publish(publication) }
    }

    /// A session started for the device at `path`.
    func announce(_ device: HomeAssistantDiscovery.Device, at path: String) {
        guard enabled else { return }
        announced.withLock { $0[path] = device }
        for publication in discovery.configs(for: device) { publisher.publish(publication) }
    }

    /// The device at `path` told of itself (its `info`): its firmware, hardware and serial reach Home Assistant's
    /// device page, through every config again (each carries the device block).
    func describe(at path: String, info: [String: JSONValue]) {
        guard enabled else { return }
        let changed = announced.withLock { devices -> HomeAssistantDiscovery.Device? in
            guard var device = devices[path], device.describe(info) else { return nil }
            devices[path] = device
            return device
        }
        guard let changed else { return }
        for publication in discovery.configs(for: changed) { publisher.publish(publication) }
    }

    /// The device at `path` was forgotten: it leaves Home Assistant too.
    func withdraw(at path: String) {
        guard let device = announced.withLock({ $0.removeValue(forKey: path) }) else { return }
        for publication in discovery.removals(for: device) { publisher.publish(publication) }
    }

    /// Home Assistant (re)started: every config again, as it may have lost them.
    func announceAgain() {
        announceGateway()
        for device in announced.withLock({ Array($0.values) }) {
            for publication in discovery.configs(for: device) { publisher.publish(publication) }
        }
    }
}
