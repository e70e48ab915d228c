import BlueZ
import DBus
import Logging
import MQTT
import Synchronization

/// The daemon: one MQTT session, one BlueZ central, and a session per matching peripheral.
///
/// Start-up order: broker (with the `offline` will), `online` status, command subscriptions, then
/// BlueZ. Commands are parsed on the receive path and handed to the device's own queue, so a slow
/// device never holds up the broker connection or another device.
public final class Bridge: Sendable {
    public let configuration: BridgeConfiguration
    let topics: TopicMap
    let logger: Logger
    let mqtt: MQTTClient
    let publisher: BrokerPublisher
    /// Commands from the broker to the devices' queues, and their replies.
    let commandRouter: CommandRouter
    let drivers: [any FamilyDriver]
    let gateway: Mutex<GatewayState>
    let metrics = DeviceMetrics()
    /// This gateway's part in a fleet; nil for a gateway on its own.
    let fleet: FleetCoordinator?
    /// Gateway requests, scan ends and inventory updates, which run beside the receive path; ended at shutdown.
    let background = OwnedTasks()
    let started = ContinuousClock.now
    /// Values dropped by the BlueZ client of the running bridge (for `counters`); nil before `run`.
    let droppedNotifications = Mutex<(@Sendable () -> Int)?>(nil)

    /// A session with its task and its command queue, keyed by the device's object path (on the adapter
    /// that serves it).
    struct RunningSession: Sendable {
        var session: any DeviceSession
        var address: String
        var adapter: String
        var task: Task<Void, Never>
        var commands: AsyncStream<CommandRouter.Queued>.Continuation
    }

    /// What the gateway knows beyond BlueZ: its sessions and the users' choices.
    struct GatewayState: Sendable {
        var sessions: [String: RunningSession] = [:]
        var states: [String: ConnectionState] = [:]
        /// Addresses a `connect` request asked for (and the family it named).
        var requested: [String: DeviceFamily?] = [:]
        /// The family each device was first recognised as, by address. A device keeps it when its
        /// name changes: on connecting, bluetoothd reads the GAP Device Name, which a BlueZ-based
        /// peripheral serves as its host's name ("BlueZ 5.66"), and a CPR band can be renamed.
        var recognised: [String: DeviceFamily] = [:]
        /// Addresses a `disconnect` request took down: not reconnected until asked.
        var released: Set<String> = []
        var scanUntil: ContinuousClock.Instant?
        /// The latest scan request (a newer one extends the scan) and the addresses reported since the scan began.
        var scanGeneration = 0
        var scanSeen: Set<String> = []
        var lastInventory: String?
        /// The last retained status of each adapter, and of the gateway's adapters together.
        var adapterStatuses: [String: AdapterStatus] = [:]
        var lastAdapterSummary: AdapterStatus?
        /// When each address was first seen, and the addresses whose adapter choice waits for the other
        /// adapters' reports (see `placement`).
        var firstSeen: [String: ContinuousClock.Instant] = [:]
        var settling: Set<String> = []
        /// Addresses that wait for a free slot on an adapter that sees them.
        var waitingForSlot: Set<String> = []
        /// Devices announced to Home Assistant, by object path.
        var discovered: [String: HomeAssistantDiscovery.Device] = [:]

        /// Sessions (connections held or sought) per adapter.
        var load: [String: Int] { Dictionary(sessions.values.map { ($0.adapter, 1) }, uniquingKeysWith: +) }
    }

    public init(configuration: BridgeConfiguration, logger: Logger) throws {
        guard TopicMap.isValidGatewayName(configuration.gateway) else {
            throw CommandError(.invalidValue, "gateway name '\(configuration.gateway)' may only hold letters, digits, '-' and '_'")
        }
        self.configuration = configuration
        self.logger = logger
        gateway = Mutex(GatewayState())
        drivers = [
            BeltDriver(), Activ5Driver(options: configuration.activ5), CPRBandDriver(options: configuration.cprBand),
            GripDriver(profile: configuration.gripProfile),
        ]
        topics = TopicMap(gateway: configuration.gateway, baseTopic: configuration.baseTopic)
        fleet = try configuration.fleet.map { options in
            FleetCoordinator(gateway: configuration.gateway, incarnation: try Incarnation.next(file: options.incarnationFile), options: options)
        }
        var mqttConfiguration = configuration.mqtt
        // A persistent session: QoS 1 commands sent while the gateway is cut off wait at the broker.
        mqttConfiguration.cleanStart = false
        // After a reconnect the broker delivers every command queued meanwhile at once: never drop one.
        mqttConfiguration.incomingBufferSize = max(mqttConfiguration.incomingBufferSize, 65_536)
        if mqttConfiguration.protocolVersion == .v5 { mqttConfiguration.sessionExpiry = configuration.sessionExpirySeconds }
        mqttConfiguration.will = MQTTMessage(topic: topics.status, string: "offline", qos: .atLeastOnce, retain: true)
        mqtt = try MQTTClient(configuration: mqttConfiguration, logger: Logger(label: "gatt2mqtt.mqtt"))
        publisher = BrokerPublisher(client: mqtt, topics: topics, logger: logger)
        commandRouter = CommandRouter(
            drivers: drivers, publisher: publisher, logger: logger, payloadSizeLimit: configuration.payloadSizeLimit,
            commandRate: configuration.commandRate)
    }

    /// Runs until the task is cancelled; then disconnects the devices and says `offline`. Under systemd
    /// (`Type=notify`) it reports READY once running, pings the watchdog while D-Bus answers, and says STOPPING.
    public func run(notifier: SystemdNotifier = SystemdNotifier()) async throws {
        mqtt.start()
        do {
            try await mqtt.connected(timeout: .seconds(10))
        } catch let error as MQTTError where error.isPermanent {
            // Wrong credentials or a TLS failure will not heal by retrying, and must never fall back to
            // anything weaker: stop with the reason.
            logger.critical("cannot use the broker: \(error)")
            await mqtt.stop()
            throw error
        } catch {
            // Keep going: the client retries with backoff and sends the retained state once connected.
            logger.error("broker not reachable yet: \(error)")
            notifier.status("broker not reachable yet; retrying")
        }
        publisher.publish(.state(topics.status, "online"))
        for family in DeviceFamily.allCases {
            try mqtt.subscribe(topics.commandFilter(family), qos: .atLeastOnce)
            // The retained `info` of the devices an earlier run of this gateway served shows what a crash left
            // behind (correctLeftovers).
            try mqtt.subscribe(topics.infoFilter(family), qos: .atLeastOnce)
        }
        for driver in drivers {
            for leaf in driver.followedLeaves { try mqtt.subscribe(topics.leafFilter(driver.family, leaf), qos: .atLeastOnce) }
        }
        // Subscribed last, the gateway's own retained status (just published) arrives after every retained
        // `info`: it ends the leftovers, which are corrected before any device is served.
        try mqtt.subscribe(topics.status, qos: .atLeastOnce)
        try mqtt.subscribe(topics.requestFilter, qos: .atLeastOnce)
        try mqtt.subscribe(HomeAssistantDiscovery.statusTopic, qos: .atLeastOnce)
        if fleet != nil {
            try mqtt.subscribe(topics.claimFilter, qos: .atMostOnce)
            try mqtt.subscribe(topics.fleetHeartbeatFilter, qos: .atMostOnce)
        }

        let dbus = try DBusConnection.system(logger: Logger(label: "gatt2mqtt.dbus"))
        let bluez = BlueZClient(connection: dbus, logger: Logger(label: "gatt2mqtt.bluez"), acquireNotify: configuration.acquireNotify)
        let events = await bluez.events()
        droppedNotifications.withLock { $0 = { bluez.droppedNotifications } }
        let leftoversRead = OneShotSignal()

        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.receiveCommands(bluez: bluez, leftoversRead: leftoversRead) }
            await leftoversRead.wait(timeout: .seconds(3))
            await bluez.start()
            await bluez.registerPairingAgent()
            publisher.publish(discovery.gatewayConfig())
            let adapters = configuration.adapters.joined(separator: ",")
            logger.info("bridge running", metadata: ["adapters": "\(adapters)", "gateway": "\(configuration.gateway)"])
            notifier.ready(status: "running on \(adapters) as gateway \(configuration.gateway)")
            group.addTask { await self.follow(events, bluez: bluez) }
            group.addTask { await self.keepDiscovering(bluez) }
            if let fleet { group.addTask { await self.runFleet(fleet, bluez: bluez) } }
            // A wedged D-Bus queue stops the pings, and systemd restarts the daemon. The broker is left out:
            // its client reconnects by itself, and an outage is no reason to restart.
            group.addTask { await notifier.runWatchdog { await dbus.isConnected } }
            await group.next()  // every child runs until cancellation
            group.cancelAll()
        }
        notifier.stopping(status: "disconnecting devices")
        await shutDown(bluez: bluez)
        dbus.close()
    }

    private func shutDown(bluez: BlueZClient) async {
        let all = gateway.withLock { state in
            defer { state.sessions = [:] }
            return Array(state.sessions.values)
        }
        background.cancelAll()
        logger.debug("stopping sessions", metadata: ["sessions": "\(all.count)"])
        // All at once: bluetoothd answers a Disconnect only when the link is down, up to 2 s later.
        await withTaskGroup(of: Void.self) { group in
            for entry in all {
                entry.commands.finish()
                entry.task.cancel()
                group.addTask { await entry.session.shutDown() }
            }
        }
        bluez.stop()
        publisher.publish(.state(topics.status, "offline"))
        await mqtt.stop()
        logger.info("bridge stopped")
    }

    // MARK: Devices

    /// Reacts to BlueZ: new or changed devices may be belts; a device that drops its link ends its session's link.
    private func follow(_ events: AsyncStream<BlueZEvent>, bluez: BlueZClient) async {
        await considerAllDevices(bluez)
        await refreshAdapterStatuses(bluez)
        for await event in events {
            // The adapter's state comes from the event itself: by the time it is handled, the cache may
            // already hold a bluetoothd that came back.
            switch event {
            case .serviceVanished:
                for name in configuration.adapters { publishAdapterStatus(.missing, of: name) }
                for session in gateway.withLock({ $0.sessions.values.map(\.session) }) { await session.linkDidDrop() }
            case .serviceAppeared:
                await refreshAdapterStatuses(bluez)
                await considerAllDevices(bluez)
            case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.adapter):
                if let name = adapterName(path) { publishAdapterStatus(.missing, of: name) }
            case .interfacesAdded(let path, _) where adapterName(path) != nil:
                await refreshAdapterStatuses(bluez)
            case .propertiesChanged(let path, BlueZInterface.adapter, let changed, _):
                if let name = adapterName(path), let powered = changed["Powered"]?.bool {
                    publishAdapterStatus(powered ? .powered : .off, of: name)
                }
            case .interfacesAdded(let path, let interfaces) where interfaces.contains(BlueZInterface.device):
                if let device = await bluez.device(at: path) {
                    reportSighting(device)
                    await considerDevice(device, bluez: bluez)
                }
                await publishInventory(bluez)
            case .propertiesChanged(let path, BlueZInterface.device, let changed, _):
                let session = gateway.withLock { $0.sessions[path]?.session }
                // Only while the link is still down: a late `Connected: false` of an earlier link (one a
                // `disconnect` request closed just before a `connect` request opened the next) must not
                // end the new one. The cache already holds what came after the event.
                if changed["Connected"]?.bool == false, let session, await bluez.device(at: path)?.connected != true {
                    await session.linkDidDrop()
                }
                if changed["Name"] != nil || changed["UUIDs"] != nil || changed["RSSI"] != nil, let device = await bluez.device(at: path) {
                    reportSighting(device)
                    await considerDevice(device, bluez: bluez)
                }
                if changed["Paired"] != nil || changed["Name"] != nil { await publishInventory(bluez) }
            case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.gattService):
                // The device's GATT server went away while the link stayed up (on the real stack when the
                // peripheral's application ends; a Service Changed can do the same): its session starts over.
                let owner = gateway.withLock { $0.sessions.first { path.hasPrefix($0.key + "/") }?.value.session }
                if let owner { await owner.linkDidDrop() }
            case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.device):
                // bluetoothd drops a device it has never connected when discovery ends (BlueZoo keeps it):
                // a session reconnecting to the gone object would only fail; the device gets a new one
                // when it is seen again.
                await stopSession(at: path, bluez: bluez)
                await publishInventory(bluez)
            default:
                break
            }
        }
    }

    /// The family that serves `device`: the one a `connect` request named, else the one it was first
    /// recognised as, else the one its advertisement matches (remembered from then on).
    func driver(for device: BlueZDevice) -> (any FamilyDriver)? {
        let known = gateway.withLock { ($0.requested[device.address] ?? nil) ?? $0.recognised[device.address] }
        if let known { return drivers.first { $0.family == known } }
        guard let matched = drivers.first(where: { $0.matches(device) }) else { return nil }
        gateway.withLock { $0.recognised[device.address] = matched.family }
        return matched
    }

    /// Starts a session for a device of a known family unless one runs, the policy says no, or a
    /// `disconnect` request took it down; on the adapter `placement` chooses among those that see it.
    func considerDevice(_ seen: BlueZDevice, bluez: BlueZClient, force: Bool = false) async {
        guard adapterName(seen.adapterPath) != nil, let driver = driver(for: seen) else { return }
        let address = seen.address
        // In a fleet only the device's owner connects it.
        if let fleet, !fleet.isOwner(FleetCoordinator.key(driver.family, id(of: address))) { return }
        let wanted = gateway.withLock { state -> Bool in
            guard !state.sessions.values.contains(where: { $0.address == address }) else { return false }
            return force || wants(seen, family: driver.family, state: state)
        }
        guard wanted, let candidates = await candidates(for: seen, bluez: bluez) else { return }
        let nowWaiting = gateway.withLock { state -> Bool in
            guard !state.sessions.values.contains(where: { $0.address == address }) else { return false }
            guard let device = placement(among: candidates, state: state) else { return state.waitingForSlot.insert(address).inserted }
            state.waitingForSlot.remove(address)
            startSession(driver: driver, device: device, bluez: bluez, state: &state)
            return false
        }
        if nowWaiting { reportWaitingForSlot(seen, candidates: candidates, bluez: bluez) }
    }

    /// Whether the users' choices let the device connect: a `connect` request for it, or the auto-connect
    /// policy unless a `disconnect` request took it down.
    func wants(_ device: BlueZDevice, family: DeviceFamily, state: GatewayState) -> Bool {
        // A bonded grip is restored on start as its SDK does, whatever the policy says.
        let restored = family == .grip && device.paired
        let allowed = configuration.autoConnect.allows(device.address) || restored
        return state.requested[device.address] != nil || (allowed && !state.released.contains(device.address))
    }

    /// Starts the device's session and its command queue, and announces it to Home Assistant.
    private func startSession(driver: any FamilyDriver, device: BlueZDevice, bluez: BlueZClient, state: inout GatewayState) {
        logger.info("device found", metadata: [
            "device": "\(device.address)", "family": "\(driver.family.rawValue)", "name": "\(device.name ?? "")",
            "adapter": "\(adapterName(device.adapterPath) ?? "")",
        ])
        let path = device.path
        let context = SessionContext(
            link: { DeviceLink(device: $0, bluez: bluez) }, publisher: publisher, logger: logger, gateway: configuration.gateway,
            id: id(of: device.address), liveStateLeaves: driver.liveStateLeaves, metrics: metrics,
            stateChanged: { [weak self] newState in
                guard let self else { return }
                self.gateway.withLock { $0.states[path] = newState }
                self.commandRouter.connectionChanged(path, to: newState)
                self.background.spawn { await self.publishInventory(bluez) }
            })
        let session = driver.makeSession(for: device, context: context)
        let (commands, continuation) = commandRouter.makeQueue()
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await session.run() }
                group.addTask { await self.commandRouter.execute(commands, on: session, path: path) }
            }
        }
        state.sessions[path] = RunningSession(
            session: session, address: device.address, adapter: adapterName(device.adapterPath) ?? "", task: task, commands: continuation)
        let announced = HomeAssistantDiscovery.Device(
            family: driver.family, id: session.id, address: device.address, name: device.name ?? device.alias, model: driver.homeAssistant)
        state.discovered[path] = announced
        for publication in discovery.configs(for: announced) { publisher.publish(publication) }
    }

    var discovery: HomeAssistantDiscovery { HomeAssistantDiscovery(topics: topics, fleet: fleet != nil) }

    /// A device's `<id>`: its configured alias, else its address in lower-case hex.
    func id(of address: String) -> String {
        configuration.aliases[address.uppercased()] ?? DeviceID.from(address: address)
    }

    /// Home Assistant (re)started: every config again, as it may have lost them.
    func announceToHomeAssistant() {
        publisher.publish(discovery.gatewayConfig())
        for device in gateway.withLock({ Array($0.discovered.values) }) {
            for publication in discovery.configs(for: device) { publisher.publish(publication) }
        }
    }

    /// Stops a device's session (and its link); the freed slot may go to a device that waits for one.
    /// With `settled`, also waits (up to 15 s) for the session's task to end: a task cancelled inside a
    /// connection attempt still makes its last calls (an abandoned link's Disconnect), which on the real
    /// stack took down the link of a session a `connect` request started right after a `disconnect`.
    func stopSession(at path: String, bluez: BlueZClient, settled: Bool = false) async {
        guard let entry = gateway.withLock({ $0.sessions.removeValue(forKey: path) }) else { return }
        entry.commands.finish()
        entry.task.cancel()
        await entry.session.shutDown()
        if settled {
            let ended = FirstAnswer<Bool>()
            let watcher = Task { await entry.task.value; ended.answer(true) }
            let timer = ended.answer(false, at: .now + .seconds(15))
            if await !ended.value { logger.warning("a stopped session's task is still running after 15 s") }
            timer.cancel()
            watcher.cancel()
        }
        if gateway.withLock({ !$0.waitingForSlot.isEmpty }) { background.spawn { await self.considerAllDevices(bluez) } }
    }

    // MARK: Health

    /// The service that publishes this gateway's health report.
    public var healthReporter: HealthReporter {
        HealthReporter(publisher: publisher, interval: configuration.healthInterval, counters: { self.counters }, logger: logger)
    }

    /// Each family's commands with working payloads, for the live page's forms.
    public var commandCatalogue: [DeviceFamily: [CommandExample]] {
        Dictionary(uniqueKeysWithValues: drivers.map { ($0.family, $0.commandExamples) })
    }

    /// Totals since the start, for `/metrics` and the health report.
    public var counters: GatewayCounters {
        let statistics = mqtt.statistics
        let sessions = gateway.withLock { state in
            Dictionary(state.sessions.keys.map { (state.states[$0]?.rawValue ?? "connecting", 1) }, uniquingKeysWith: +)
        }
        return GatewayCounters(
            messagesIn: statistics.messagesReceived, messagesOut: statistics.messagesPublished,
            brokerReconnects: statistics.reconnects, droppedMessages: statistics.droppedMessages,
            droppedNotifications: droppedNotifications.withLock { $0?() } ?? 0, sessions: sessions,
            devices: metrics.snapshot.mapValues(GatewayCounters.Device.init),
            residentBytes: HealthReport.residentBytes(), uptimeSeconds: (ContinuousClock.now - started) / .seconds(1))
    }

    // MARK: The receive path

    /// Every message from the broker, to the part of the gateway it is for.
    private func receiveCommands(bluez: BlueZClient, leftoversRead: OneShotSignal) async {
        for await message in mqtt.messages {
            if receiveFleetMessage(message) { continue }
            if message.topic == topics.status {
                // Only the retained copy our subscription brings ends the leftovers: a persistent session may
                // first deliver what was queued for it, such as the crashed run's own will.
                if message.retain { leftoversRead.fire() }
            } else if message.topic == HomeAssistantDiscovery.statusTopic {
                if message.payloadString == "online" { announceToHomeAssistant() }
            } else if let name = topics.parseRequest(message.topic) {
                handleRequest(message, name: name, bluez: bluez)
            } else if let (family, id, name) = topics.parseCommand(message.topic) {
                commandRouter.route(
                    message, family: family, id: id, name: name,
                    queue: { gateway.withLock { $0.sessions.values.first { $0.session.family == family && $0.session.id == id }?.commands } },
                    answersWithoutSession: { answersWithoutSession(family: family, id: id) })
            } else if message.retain, let (family, id) = topics.parseInfo(message.topic) {
                correctLeftovers(family: family, id: id, info: message)
            } else if let (family, id, leaf) = topics.parseLeaf(message.topic), let driver = drivers.first(where: { $0.family == family }),
                driver.followedLeaves.contains(leaf), !driver.followed(id: id, leaf: leaf, payload: message.payload)
            {
                logger.warning("malformed \(leaf) ignored", metadata: ["topic": "\(message.topic)"])
            }
        }
    }
}
