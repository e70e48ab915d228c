import Locks
import MQTT

/// What this gateway has told Home Assistant: the gateway's config and each served device's, kept so
/// that they can be sent again when Home Assistant restarts and withdrawn when a device is forgotten.
/// Disabled (`homeassistant.enabled: false`), it tells Home Assistant nothing.
final class HomeAssistantAnnouncer: Sendable {
    private let discovery: HomeAssistantDiscovery
    private let publisher: BrokerPublisher
    private let enabled: Bool
    /// Devices announced, by object path.
    private let announced = Mutex<[String: HomeAssistantDiscovery.Device]>([:])
    /// Devices whose per-gateway configs have been cleared in this run (`<family>/<id>`), and the object paths
    /// whose configs wait for Home Assistant to have removed those (`clearingPause`).
    private let clearing = Mutex<(cleared: Set<String>, waiting: Set<String>)>(([], []))
    private let pauses = OwnedTasks()
    /// Home Assistant's birth messages, coalesced.
    private let births: Mutex<BirthCoalescer>
    /// How long a device's configs wait after its per-gateway configs were cleared. Home Assistant removes an entity
    /// in a task of its own, and says nothing when it is done; a config that asks for the same entity id before then
    /// gets `_2` (2024.3 does so when they come back to back). Once a run per device.
    static let clearingPause = Duration.seconds(2)

    init(discovery: HomeAssistantDiscovery, publisher: BrokerPublisher, enabled: Bool = true, birthHoldOff: Duration = .seconds(5)) {
        self.discovery = discovery
        self.publisher = publisher
        self.enabled = enabled
        births = Mutex(BirthCoalescer(holdOff: birthHoldOff))
    }

    /// Home Assistant's status: every config is sent again when it comes back online, at most once per hold-off
    /// (`BirthCoalescer`). Nil while disabled, when that status is nobody's business here.
    var route: BrokerRoute? {
        guard enabled else { return nil }
        let topic = discovery.statusTopic
        return BrokerRoute(
            subscriptions: [.init(filter: topic, qos: .atLeastOnce)],
            take: { [self] message in
                guard message.topic == topic else { return false }
                if message.payloadString == "online" { heardBirth() }
                return true
            })
    }

    func announceGateway() {
        guard enabled else { return }
        for publication in discovery.gatewayConfigs() { publisher.publish(publication) }
    }

    /// A session started for the device at `path`.
    func announce(_ device: HomeAssistantDiscovery.Device, at path: String) {
        guard enabled else { return }
        announced.withLock { $0[path] = device }
        let removals = discovery.perGatewayRemovals(for: device)
        let key = "\(device.family.rawValue)/\(device.id)"
        let clearNow = !removals.isEmpty && clearing.withLock { $0.cleared.insert(key).inserted && $0.waiting.insert(path).inserted }
        guard clearNow else {
            if !isWaiting(path) { publishConfigs(at: path) }
            return
        }
        for publication in removals { publisher.publish(publication) }
        pauses.spawn { [weak self] in
            try? await Task.sleep(for: Self.clearingPause)
            guard let self else { return }
            _ = self.clearing.withLock { $0.waiting.remove(path) }
            self.publishConfigs(at: path)
        }
    }

    private func isWaiting(_ path: String) -> Bool { clearing.withLock { $0.waiting.contains(path) } }

    /// The configs of the device announced at `path`, as it is now (if it is still announced).
    private func publishConfigs(at path: String) {
        guard let device = announced.withLock({ $0[path] }) else { return }
        for publication in discovery.configs(for: device) { publisher.publish(publication) }
    }

    /// The device at `path` told of itself (its `info`): its firmware, hardware and serial reach Home Assistant's
    /// device page, through every config again (each carries the device block).
    func describe(at path: String, info: [String: JSONValue]) {
        guard enabled else { return }
        let changed = announced.withLock { devices -> Bool in
            guard var device = devices[path], device.describe(info) else { return false }
            devices[path] = device
            return true
        }
        guard changed, !isWaiting(path) else { return }
        publishConfigs(at: path)
    }

    /// The device at `path` was forgotten: it leaves Home Assistant too.
    func withdraw(at path: String) {
        guard let device = announced.withLock({ $0.removeValue(forKey: path) }) else { return }
        for publication in discovery.removals(for: device) { publisher.publish(publication) }
    }

    /// A birth message: every config again now, or at the end of the hold-off.
    private func heardBirth() {
        switch births.withLock({ $0.birth(at: .now) }) {
        case .now: announceAgain()
        case .folded: break
        case .at(let due):
            pauses.spawn { [weak self] in
                // Cancelled at shutdown: nothing is announced then.
                guard (try? await Task.sleep(until: due, clock: .continuous)) != nil, let self else { return }
                self.births.withLock { $0.dueAnnounced(at: .now) }
                self.announceAgain()
            }
        }
    }

    /// Home Assistant (re)started: every config again, as it may have lost them.
    func announceAgain() {
        announceGateway()
        for path in announced.withLock({ Array($0.keys) }) where !isWaiting(path) { publishConfigs(at: path) }
    }
}
