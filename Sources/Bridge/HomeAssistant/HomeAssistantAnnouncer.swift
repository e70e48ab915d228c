import Locks
import Logging
import MQTT

/// What this gateway has told Home Assistant: the gateway's config and each served device's, kept so
/// that they can be sent again when Home Assistant restarts and withdrawn when a device is forgotten. It follows
/// the retained configs of its kind on the broker (`OwnConfigs`): a device keeps the identity Home Assistant knows
/// it by (`IdentityLedger`), and after each announcement every config of its kind that no kept device has is swept.
/// A kept device's (or the gateway's) configs of the other mode (`homeassistant.discovery`) are migrated, not swept
/// (`DiscoveryMigration`). Disabled (`homeassistant.enabled: false`), it tells Home Assistant nothing.
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
    /// Devices whose per-gateway configs have been cleared in this run (`<family>/<id>`), the nodes whose configs wait
    /// for Home Assistant to have removed those or taken a migration (`clearingPause`), and the entities to remove
    /// from a node's device config (object → platform) before it is sent without them.
    private let clearing = Mutex<(cleared: Set<String>, waiting: Set<String>, removing: [String: [String: String]])>(
        ([], [], [:]))
    private let pauses = OwnedTasks()
    /// Home Assistant's birth messages, coalesced.
    private let births: Mutex<BirthCoalescer>
    /// How long a device's configs wait after its per-gateway configs were cleared, or its old configs were asked to
    /// migrate. Home Assistant removes or unloads an entity in a task of its own, and says nothing when it is done; a
    /// config that asks for the same entity id before then gets `_2` (2024.3 does so when they come back to back).
    /// Once a run per device.
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
                prefix: discovery.prefix, nodePrefixes: discovery.ownNodePrefixes, gatewayNode: discovery.gatewayNode,
                families: discovery.topics.families))
        births = Mutex(BirthCoalescer(holdOff: birthHoldOff))
    }

    /// Home Assistant's status: every config is sent again when it comes back online, at most once per hold-off
    /// (`BirthCoalescer`); and every retained config, of which those of this gateway's kind are kept in mind. Nil while
    /// disabled, when neither is anybody's business here.
    var route: BrokerRoute? {
        guard enabled else { return nil }
        let topic = discovery.statusTopic
        let filters = configs.withLock { $0.filters }
        return BrokerRoute(
            subscriptions: [.init(filter: topic, qos: .atLeastOnce)]
                + filters.map { .init(filter: $0, qos: .atLeastOnce) },
            take: { [self] message in
                if message.topic == topic {
                    if message.payloadString == "online" { heardBirth() }
                    return true
                }
                return configs.withLock { $0.take(topic: message.topic, payload: message.payload) }
            })
    }

    /// The gateway's configs; migrated first when the broker holds them in the other mode.
    func announceGateway() {
        guard enabled else { return }
        let node = discovery.gatewayNode
        let migration = discovery.gatewayMigration(from: configs.withLock { $0.topics(of: node) })
        publish(node: node, after: [], migration: migration) { [discovery] in discovery.gatewayConfigs() }
    }

    /// A session started for the device at `path`.
    func announce(_ device: HomeAssistantDiscovery.Device, at path: String) {
        guard enabled else { return }
        var device = device
        device.identity = identity(of: device.family, at: device.address, id: device.id)
        announced.withLock { $0[path] = device }
        let node = discovery.node(device)
        // A per-gateway device config only when the broker has one: Home Assistant warns of an empty device config
        // it has no components for (those per entity it takes in silence, and the broker may have lost them).
        var removals = configs.withLock { configs in
            discovery.perGatewayRemovals(for: device).filter {
                configs.node(of: $0.topic)?.isDevice != true || configs.holds($0.topic)
            }
        }
        let key = "\(device.family.rawValue)/\(device.id)"
        if !removals.isEmpty, isWaiting(node) || !clearing.withLock({ $0.cleared.insert(key).inserted }) {
            removals = []
        }
        let migration = discovery.migration(for: device, from: configs.withLock { $0.topics(of: node) })
        publish(node: node, after: removals, migration: migration) { [weak self] in
            self?.currentConfigs(at: path) ?? []
        }
    }

    /// `configs()` for `node`: at once; or when there are old configs to remove first (`removals`, and what
    /// `migration` clears), those now (and the migration's requests), and `configs()` once Home Assistant has had
    /// `clearingPause` to take them. A node already waiting is left to its pause, whose end sends what is current
    /// then.
    private func publish(
        node: String, after removals: [Publication], migration: DiscoveryMigration,
        configs: @escaping @Sendable () -> [Publication]
    ) {
        guard !removals.isEmpty || !migration.isEmpty else {
            if !isWaiting(node) { for publication in configs() { publisher.publish(publication) } }
            return
        }
        guard clearing.withLock({ $0.waiting.insert(node).inserted }) else { return }
        clear(removals)
        for request in migration.requests { publisher.publish(request) }
        pauses.spawn { [weak self] in
            // Cancelled at shutdown: the old configs stay as they were, to be migrated at the next start.
            guard (try? await Task.sleep(for: Self.clearingPause)) != nil, let self else { return }
            self.clear(migration.clears)
            self.endPause(of: node, configs: configs)
        }
    }

    /// A node's pause is over: entities still to be removed from its device config go first, with a pause of their
    /// own; then `configs()`.
    private func endPause(of node: String, configs: @escaping @Sendable () -> [Publication]) {
        let removing = clearing.withLock { state -> Bool in
            if state.removing[node]?.isEmpty == false { return true }
            state.waiting.remove(node)
            return false
        }
        guard !removing else { return removeComponents(of: node, configs: configs) }
        for publication in configs() { publisher.publish(publication) }
    }

    /// Sends `node`'s device config with the entities to remove as Home Assistant documents removing one component (its
    /// platform alone), and after `clearingPause` the config without them. The node is waiting meanwhile.
    private func removeComponents(of node: String, configs: @escaping @Sendable () -> [Publication]) {
        let platforms = clearing.withLock { $0.removing.removeValue(forKey: node) ?? [:] }
        for publication in configs() { publisher.publish(discovery.removing(platforms, from: publication)) }
        pauses.spawn { [weak self] in
            // Cancelled at shutdown: the next start announces the device without them.
            guard (try? await Task.sleep(for: Self.clearingPause)) != nil, let self else { return }
            self.endPause(of: node, configs: configs)
        }
    }

    private func isWaiting(_ node: String) -> Bool { clearing.withLock { $0.waiting.contains(node) } }

    /// Empty payloads on configs of ours, taken as read at once: a sweep before the broker echoes them would
    /// clear them again, and a second empty device config makes Home Assistant warn that it has nothing to clean up.
    private func clear(_ removals: [Publication]) {
        configs.withLock { configs in
            for removal in removals { _ = configs.take(topic: removal.topic, payload: []) }
        }
        for removal in removals { publisher.publish(removal) }
    }

    /// The configs of the device announced at `path`, as it is now (none when it is no longer announced).
    private func currentConfigs(at path: String) -> [Publication] {
        announced.withLock { $0[path] }.map(discovery.configs(for:)) ?? []
    }

    private func publishConfigs(at path: String) {
        for publication in currentConfigs(at: path) { publisher.publish(publication) }
    }

    private func node(at path: String) -> String? {
        announced.withLock { $0[path] }.map(discovery.node)
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
        guard changed, let node = node(at: path), !isWaiting(node) else { return }
        publishConfigs(at: path)
    }

    /// What was chosen for the device at `path` changed (`devices.names`, `devices.entities`, `devices.streaming`): every
    /// config again, with its name and entities as chosen now. An entity no longer announced goes first, as Home
    /// Assistant documents removing one component of a device config: its platform alone, then (after
    /// `clearingPause`) the config without it.
    func reconfigure(at path: String, options: DeviceOptions) {
        guard enabled else { return }
        let change = announced.withLock {
            devices -> (before: HomeAssistantDiscovery.Device, after: HomeAssistantDiscovery.Device)? in
            guard let before = devices[path], before.options != options else { return nil }
            var after = before
            after.options = options
            devices[path] = after
            return (before, after)
        }
        guard let change, let node = node(at: path) else { return }
        let kept = discovery.announcedPlatforms(of: change.after)
        let gone = discovery.announcedPlatforms(of: change.before).filter { kept[$0.key] == nil }
        guard !gone.isEmpty else {
            if !isWaiting(node) { publishConfigs(at: path) }
            return
        }
        // A node already waiting removes them when its pause ends.
        let waiting = clearing.withLock { state -> Bool in
            state.removing[node, default: [:]].merge(gone) { $1 }
            return !state.waiting.insert(node).inserted
        }
        guard !waiting else { return }
        removeComponents(of: node) { [weak self] in self?.currentConfigs(at: path) ?? [] }
    }

    /// The device at `path` was forgotten: it leaves Home Assistant too, and so does whatever else of its kind no
    /// kept device has (a forgotten device that had no session here).
    func withdraw(at path: String) {
        if let device = announced.withLock({ $0.removeValue(forKey: path) }) {
            clear(discovery.removals(for: device))
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
    /// another gateway's in the fleet), with the configs it would have; a kept device's configs of the other mode are
    /// migrated to this one's, and nodes waiting for a migration are left to it. One pass over what is kept in mind.
    func sweep() {
        guard enabled else { return }
        let announcedNodes = announced.withLock { devices in
            Dictionary(
                devices.map { (discovery.node($0.value), (path: $0.key, device: $0.value)) },
                uniquingKeysWith: { first, _ in first })
        }
        let nodes = configs.withLock { $0.nodes }
        var stale: [String] = []
        var devices = Set<String>()
        for (node, entry) in nodes where !isWaiting(node) {
            let wanted: Set<String>
            var migration = DiscoveryMigration.none
            var current: @Sendable () -> [Publication] = { [] }
            if let (path, device) = announcedNodes[node] {
                wanted = discovery.configTopics(for: device)
                migration = discovery.migration(for: device, from: entry.topics)
                current = { [weak self] in self?.currentConfigs(at: path) ?? [] }
            } else if let family = entry.family, let address = entry.address {
                let kept = keptDevice(node: node, family: family, address: address)
                wanted = kept.map(discovery.configTopics(for:)) ?? []
                if let kept {
                    migration = discovery.migration(for: kept, from: entry.topics)
                    current = { [discovery] in discovery.configs(for: kept) }
                }
            } else if node == discovery.gatewayNode {
                wanted = discovery.gatewayConfigTopics()
                migration = discovery.gatewayMigration(from: entry.topics)
                current = { [discovery] in discovery.gatewayConfigs() }
            } else {
                wanted = entry.topics
            }
            if !migration.isEmpty { publish(node: node, after: [], migration: migration, configs: current) }
            let extra = entry.topics.subtracting(wanted).subtracting(migration.cleared)
            if !extra.isEmpty, let address = entry.address { devices.insert(address) }
            stale += extra
        }
        guard !stale.isEmpty else { return }
        clear(stale.sorted().map { .state($0, "") })
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

    /// A device without a session here that keeps its configs under `node`: one that is kept, when this is its
    /// identity.
    private func keptDevice(node: String, family: DeviceFamily, address: String) -> HomeAssistantDiscovery.Device? {
        guard let model = housekeeping.models[family], housekeeping.keeps(family, address) else { return nil }
        let id = housekeeping.id(address)
        let device = HomeAssistantDiscovery.Device(
            family: family, id: id, address: address, identity: identity(of: family, at: address, id: id), model: model)
        return discovery.node(device) == node ? device : nil
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
        for (path, device) in announced.withLock({ $0 }) where !isWaiting(discovery.node(device)) {
            publishConfigs(at: path)
        }
        sweep()
    }
}
