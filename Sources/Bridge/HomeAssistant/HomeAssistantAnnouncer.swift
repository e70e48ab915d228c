import Locks
import Logging
import MQTT

/// What this gateway has told Home Assistant: the gateway's config and each served device's, kept so
/// that they can be sent again when Home Assistant restarts and withdrawn when a device is forgotten. It follows
/// the retained configs of its kind on the broker (`OwnConfigs`): a device keeps the identity Home Assistant knows
/// it by (`IdentityLedger`), and after each announcement every config of its kind that no kept device has is swept.
/// Disabled (`homeassistant.enabled: false`), it tells Home Assistant nothing.
final class HomeAssistantAnnouncer: Sendable {
    /// What the sweep asks the rest of the gateway.
    struct Housekeeping: Sendable {
        /// Whether a device without a session here stays in Home Assistant: adopted, allowed, or in a fleet another
        /// gateway's.
        var keeps: @Sendable (DeviceFamily, String) -> Bool = { _, _ in true }
        /// A device's MQTT `<id>` (its alias, else its address in hex).
        var id: @Sendable (String) -> String = { DeviceID.from(address: $0) }
        /// What each family declares for Home Assistant.
        var models: [DeviceFamily: HomeAssistantModel] = [:]
        var ledger: IdentityLedger?
        var logger = Logger(label: "gatt2mqtt")
    }

    private let discovery: HomeAssistantDiscovery
    private let publisher: BrokerPublisher
    private let enabled: Bool
    private let housekeeping: Housekeeping
    /// The retained configs of this gateway's kind on the broker.
    private let configs: Mutex<OwnConfigs>
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

    init(
        discovery: HomeAssistantDiscovery, publisher: BrokerPublisher, enabled: Bool = true,
        birthHoldOff: Duration = .seconds(5),
        housekeeping: Housekeeping = Housekeeping()
    ) {
        self.discovery = discovery
        self.publisher = publisher
        self.enabled = enabled
        self.housekeeping = housekeeping
        configs = Mutex(
            OwnConfigs(
                prefix: discovery.prefix, nodePrefixes: discovery.ownNodePrefixes, gatewayNode: discovery.gatewayNode))
        births = Mutex(BirthCoalescer(holdOff: birthHoldOff))
    }

    /// Home Assistant's status: every config is sent again when it comes back online, at most once per hold-off
    /// (`BirthCoalescer`); and every retained config, of which those of this gateway's kind are kept in mind. Nil while
    /// disabled, when neither is anybody's business here.
    var route: BrokerRoute? {
        guard enabled else { return nil }
        let topic = discovery.statusTopic
        let filter = configs.withLock { $0.filter }
        return BrokerRoute(
            subscriptions: [.init(filter: topic, qos: .atLeastOnce), .init(filter: filter, qos: .atLeastOnce)],
            take: { [self] message in
                if message.topic == topic {
                    if message.payloadString == "online" { heardBirth() }
                    return true
                }
                return configs.withLock { $0.take(topic: message.topic, payload: message.payload) }
            })
    }

    func announceGateway() {
        guard enabled else { return }
        for publication in discovery.gatewayConfigs() { publisher.publish(publication) }
    }

    /// A session started for the device at `path`.
    func announce(_ device: HomeAssistantDiscovery.Device, at path: String) {
        guard enabled else { return }
        var device = device
        device.identity = identity(of: device.family, at: device.address, id: device.id)
        announced.withLock { $0[path] = device }
        let removals = discovery.perGatewayRemovals(for: device)
        let key = "\(device.family.rawValue)/\(device.id)"
        let clearNow =
            !removals.isEmpty
            && clearing.withLock { $0.cleared.insert(key).inserted && $0.waiting.insert(path).inserted }
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

    /// The device at `path` was forgotten: it leaves Home Assistant too, and so does whatever else of its kind no
    /// kept device has (a forgotten device that had no session here).
    func withdraw(at path: String) {
        if let device = announced.withLock({ $0.removeValue(forKey: path) }) {
            for publication in discovery.removals(for: device) { publisher.publish(publication) }
        }
        sweep()
    }

    // MARK: Identities and the sweep

    /// The identity Home Assistant knows the device by: the one kept in the ledger; else one its retained configs
    /// already have under this gateway's node prefix (an alias a release before 0.10.0 used), which the ledger keeps
    /// from then on; else its address.
    func identity(of family: DeviceFamily, at address: String, id: String) -> String {
        if let kept = housekeeping.ledger?.identity(of: family, at: address) { return kept }
        let hex = DeviceID.from(address: address)
        let known = configs.withLock { $0.identities(of: family, at: address, under: discovery.nodePrefix) }
        guard let first = known.first, !known.contains(hex) else { return hex }
        let legacy = known.contains(id) ? id : first
        housekeeping.ledger?.keep(legacy, of: family, at: address)
        return legacy
    }

    /// Clears every retained config of this gateway's kind that no kept device announces: forgotten devices, devices
    /// off the allow list, retired entities, identities a device no longer goes by, the per-gateway configs of
    /// earlier releases. A device without a session here is kept when `Housekeeping.keeps` says so (adopted, allowed,
    /// another gateway's in the fleet), with the configs it would have. One pass over what is kept in mind.
    func sweep() {
        guard enabled else { return }
        let announcedNodes = announced.withLock { devices in
            Dictionary(devices.values.map { (discovery.node($0), $0) }, uniquingKeysWith: { first, _ in first })
        }
        let nodes = configs.withLock { $0.nodes }
        var stale: [String] = []
        var devices = Set<String>()
        for (node, entry) in nodes {
            let wanted: Set<String>
            if let device = announcedNodes[node] {
                wanted = discovery.configTopics(for: device)
            } else if let family = entry.family, let address = entry.address {
                wanted = keptTopics(node: node, family: family, address: address)
            } else {
                wanted = node == discovery.gatewayNode ? discovery.gatewayConfigTopics() : entry.topics
            }
            let extra = entry.topics.subtracting(wanted)
            if !extra.isEmpty, let address = entry.address { devices.insert(address) }
            stale += extra
        }
        guard !stale.isEmpty else { return }
        for topic in stale.sorted() { publisher.publish(.state(topic, "")) }
        housekeeping.logger.notice(
            "swept retained Home Assistant configs nothing announces",
            metadata: [
                "configs": "\(stale.count)", "devices": "\(devices.count)",
            ])
    }

    /// The sweep, now or once `delay` has passed (cancelled at shutdown).
    func sweep(after delay: Duration) {
        guard delay > .zero else { return sweep() }
        pauses.spawn { [weak self] in
            guard (try? await Task.sleep(for: delay)) != nil else { return }
            self?.sweep()
        }
    }

    /// The configs a device without a session here keeps under `node`: all it would have when it is kept and this is
    /// its identity, else none.
    private func keptTopics(node: String, family: DeviceFamily, address: String) -> Set<String> {
        guard let model = housekeeping.models[family], housekeeping.keeps(family, address) else { return [] }
        let id = housekeeping.id(address)
        let device = HomeAssistantDiscovery.Device(
            family: family, id: id, address: address, identity: identity(of: family, at: address, id: id), model: model)
        guard discovery.node(device) == node else { return [] }
        return discovery.configTopics(for: device)
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

    /// Home Assistant (re)started: every config again, as it may have lost them, and the sweep after.
    func announceAgain() {
        announceGateway()
        for path in announced.withLock({ Array($0.keys) }) where !isWaiting(path) { publishConfigs(at: path) }
        sweep()
    }
}
