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
    /// The configs Home Assistant has been sent.
    let homeAssistant: HomeAssistantAnnouncer
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
        homeAssistant = HomeAssistantAnnouncer(
            discovery: HomeAssistantDiscovery(topics: topics, fleet: fleet != nil), publisher: publisher)
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
            homeAssistant.announceGateway()
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
                if message.payloadString == "online" { homeAssistant.announceAgain() }
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
