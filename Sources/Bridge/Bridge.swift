import BlueZ
import Logging
import MQTT
import ServiceLifecycle

/// The gateway, put together: one feature for each job, each owning its state, and the services that run them.
/// Start-up order is the services' nesting, not gates: the broker session comes first and runs the receive path
/// and BlueZ inside it; BlueZ, once started, runs the device policy and the fleet inside it. A graceful shutdown
/// (SIGTERM, SIGINT) stops them from the inside out: the watchdog, the receive path, the fleet, then every device
/// is disconnected, BlueZ is let go, and last the broker hears `offline`. Any of them that ends or fails ends
/// the group.
///
/// ```
/// BrokerService ─ connect, "online", subscribe to every feature's route
/// ├── LogTopicService                  log lines on gatt2mqtt/<gateway>/log
/// ├── CommandReceiverService           the receive path (it reads the retained leftovers first)
/// └── BlueZService ─ leftovers read (≤3 s), BlueZ started, pairing agent
///     ├── DevicePolicyService          READY=1, BlueZ followed, discovery kept on
///     └── FleetService                 with a fleet only
/// WatchdogService
/// SystemBusWatch                       ends the gateway, with an error, when the bus is lost
/// RestartService                       ends it, with `RestartRequested`, after `request/restart`
/// ```
///
/// Commands are parsed on the receive path and handed to the device's own queue, so a slow device never
/// holds up the broker connection or another device.
public final class Bridge: Sendable {
    public let configuration: BridgeConfiguration
    /// The broker, BlueZ, the settings and the families, as every feature reaches them.
    let context: GatewayContext
    /// Sessions and placement: which devices are served, on which adapter; their commands and the device list.
    let sessions: DeviceSessions
    /// The `request/<name>` API.
    let requests: GatewayRequests
    /// This gateway's part in a fleet; nil for a gateway on its own.
    let fleet: FleetService?
    /// The retained state a crash left behind, corrected before BlueZ starts.
    let leftovers: Leftovers
    let adapters: AdapterWatch
    /// The retained `info`: version, start, settings, adapters, fleet role.
    let info: GatewayInfo
    let receivePath: ReceivePath
    let notifier: SystemdNotifier
    /// When the gateway started: the health report's uptime, and the restart hold-off's start.
    let started: ContinuousClock.Instant
    /// Fired by `request/restart`; `RestartService` ends the gateway on it.
    let restartSignal = RestartSignal()
    /// `gatt2mqtt/<gateway>/log`: the daemon attaches its log tap here (`LogTopic.offer`).
    public let logTopic: LogTopic

    /// The label of the broker client's logger: its lines never go to the log topic, which it carries
    /// (`LogTopic`).
    public static let brokerLogLabel = "gatt2mqtt.mqtt"

    /// The gateway on the system bus's BlueZ and the configured broker; `options` changes its settings over MQTT
    /// (`request/options`; without it the request is refused).
    public convenience init(
        configuration: BridgeConfiguration, logger: Logger, notifier: SystemdNotifier = SystemdNotifier(),
        options: (any GatewayOptionsHandler)? = nil
    ) throws {
        try self.init(
            configuration: configuration, logger: logger, notifier: notifier,
            broker: { try MQTTClient(configuration: $0, logger: Logger(label: Self.brokerLogLabel)) },
            central: BlueZCentral(
                acquireNotify: configuration.acquireNotify, operationTimeout: configuration.gattOperationTimeout),
            options: options)
    }

    /// The gateway on any broker and any BlueZ (the seam a gateway under test runs on): `broker` makes the
    /// connection from the settings the gateway chose (its will, a persistent session, its limits). Public to the
    /// benchmark only (`@_spi(Bench)`): the fleet-scale benchmark runs real gateways on real brokers and BlueZ in memory.
    @_spi(Bench)
    public init(
        configuration: BridgeConfiguration, logger: Logger, notifier: SystemdNotifier,
        broker: (MQTTConfiguration) throws -> any BrokerConnection, central: any BluetoothCentral,
        options: (any GatewayOptionsHandler)? = nil
    ) throws {
        guard TopicMap.isValidGatewayName(configuration.gateway) else {
            throw CommandError(
                .invalidValue,
                "gateway name '\(configuration.gateway)' may only hold letters, digits, '-' and '_', at most 64 of them"
            )
        }
        self.configuration = configuration
        self.notifier = notifier
        let started = ContinuousClock.now
        self.started = started
        let drivers: [any FamilyDriver] =
            FamilyRegistry.drivers.map { $0.init(configuration: configuration) }
            + configuration.declarations.map(DeclaredDriver.init)
        let topics = TopicMap(
            gateway: configuration.gateway, baseTopic: configuration.baseTopic, families: drivers.map(\.family))
        if let folder = configuration.stateDirectory {
            // Before anything is written there: what an earlier run's cut-short writes left (DurableFile).
            let removed = DurableFile.removeLeftTemporaries(in: folder)
            if !removed.isEmpty {
                logger.notice(
                    "removed \(removed.count) temporary file(s) an interrupted write left in the state folder",
                    // Named up to ten: whoever can write the folder chooses how many there are.
                    metadata: [
                        "folder": "\(folder)",
                        "files": "\(removed.prefix(10).joined(separator: ","))\(removed.count > 10 ? ",…" : "")",
                    ])
            }
        }
        // Before the incarnation is written for this start: whether an earlier one left it.
        let ranBefore = EarlierRun.isKnown(configuration)
        let coordinator = try configuration.fleet.map { options in
            let incarnation = try Incarnation.forGateway(options) { logger.notice("\($0)") }
            return FleetCoordinator(gateway: configuration.gateway, incarnation: incarnation, options: options)
        }
        let mqtt = try broker(Self.brokerSettings(configuration, topics: topics))
        if coordinator != nil {
            // A device's retained state waits after a reconnect until the fleet says the device is still this
            // gateway's (FleetService): cut off, it may have passed to another gateway, whose state it would
            // otherwise overwrite.
            mqtt.withholdOnRestore { topics.parseLeaf($0) != nil }
        }
        let warnings = WarningLimiter()
        let publisher = BrokerPublisher(
            client: mqtt, topics: topics, logger: logger,
            replySpace: ReplySpace(
                topics: topics, discoveryPrefix: configuration.homeAssistant.discoveryPrefix,
                filters: configuration.replyTopics),
            warnings: warnings)
        let context = GatewayContext(
            configuration: configuration, live: LiveSettings(configuration), topics: topics, logger: logger, mqtt: mqtt,
            publisher: publisher, bluez: central, drivers: drivers, warnings: warnings, background: OwnedTasks())
        self.context = context
        let commandRouter = CommandRouter(
            drivers: drivers, publisher: publisher, logger: logger, payloadSizeLimit: configuration.payloadSizeLimit,
            commandRate: configuration.commandRate)
        let adoptions = Adoptions(context: context, ranBefore: ranBefore)
        let claims = coordinator.map { ClaimSubscriptions(context: context, coordinator: $0) }
        // A device without a session here stays in Home Assistant while it is allowed, or adopted where adoption
        // counts (`AutoConnectPolicy.keepsAnnounced`), or another gateway of the fleet may own it.
        let housekeeping = HomeAssistantAnnouncer.Housekeeping(
            keeps: { family, address in
                context.live.autoConnect.keepsAnnounced(address, adopted: adoptions.contains(address))
                    || claims?.mayBeOwnedElsewhere(FleetCoordinator.key(family, context.id(of: address))) ?? false
            },
            id: { context.id(of: $0) },
            models: Dictionary(drivers.map { ($0.family, $0.homeAssistant) }, uniquingKeysWith: { first, _ in first }),
            ledger: IdentityLedger(stateDirectory: configuration.stateDirectory, logger: logger), logger: logger)
        let homeAssistant = HomeAssistantAnnouncer(
            discovery: HomeAssistantDiscovery(
                topics: topics, fleet: coordinator != nil, prefix: configuration.homeAssistant.discoveryPrefix,
                fastStreams: configuration.homeAssistant.fastStreams, mode: configuration.homeAssistant.discovery,
                configurationURL: configuration.livePageURL),
            publisher: publisher, enabled: configuration.homeAssistant.enabled,
            birthHoldOff: configuration.homeAssistant.birthHoldOff,
            housekeeping: housekeeping)
        let statuses = AdapterStatusBoard(adapters: configuration.adapters)
        let info = GatewayInfo(context: context, statuses: statuses, coordinator: coordinator, started: .now)
        self.info = info
        adapters = AdapterWatch(context: context, statuses: statuses, info: info)
        let sessions = DeviceSessions(
            context: context, commandRouter: commandRouter, homeAssistant: homeAssistant,
            adapterStatuses: adapters.statuses, fleet: coordinator,
            adoptions: adoptions)
        self.sessions = sessions
        requests = GatewayRequests(
            context: context, sessions: sessions, restart: restartSignal, options: options, info: info,
            started: started)
        let fleet = coordinator.flatMap { coordinator in
            claims.map {
                FleetService(context: context, coordinator: coordinator, claims: $0, sessions: sessions, info: info)
            }
        }
        self.fleet = fleet
        leftovers = Leftovers(context: context, sessions: sessions.table, adoptions: adoptions)
        // The order a message is offered in: the fleet sees a gateway status first (and leaves the gateway's own to
        // the leftovers); the rest are disjoint.
        let routes = [
            fleet?.route, leftovers.route, adoptions.route, homeAssistant.route, requests.route,
            sessions.commandRoute { family, id in fleet?.answersWithoutSession(family: family, id: id) ?? true },
            sessions.followedLeavesRoute,
        ].compactMap { $0 }
        receivePath = ReceivePath(context: context, routes: routes)
        logTopic = LogTopic(
            topic: topics.log, burst: configuration.logTopicRate.burst, period: configuration.logTopicRate.period)
    }

    /// The broker settings the gateway connects with: the configured ones, with its will, a persistent session and
    /// its size limits.
    private static func brokerSettings(_ configuration: BridgeConfiguration, topics: TopicMap) -> MQTTConfiguration {
        var settings = configuration.mqtt
        // A persistent session: QoS 1 commands sent while the gateway is cut off wait at the broker.
        settings.cleanStart = false
        // After a reconnect the broker delivers every command queued meanwhile at once: never drop one.
        // The bytes that wait are bounded apart (MQTTConfiguration.incomingBufferBytes, 64 MiB): that many messages
        // of the largest size taken would be gigabytes.
        settings.incomingBufferSize = max(settings.incomingBufferSize, 65_536)
        settings.maximumPacketSize = maximumPacketSize(payloadSizeLimit: configuration.payloadSizeLimit)
        if settings.protocolVersion == .v5 { settings.sessionExpiry = configuration.sessionExpirySeconds }
        settings.will = MQTTMessage(topic: topics.status, string: "offline", qos: .atLeastOnce, retain: true)
        return settings
    }

    /// The largest packet the gateway takes from the broker: 1 MiB (or twice `payload_size_limit`, if larger), and
    /// room for topic and properties. Every command or request up to that is answered that it is too large and
    /// counted: a refusal is answered, and a request of 40 KiB that got nothing looked lost. Only beyond it (other
    /// clients' payloads of up to 256 MB on a shared broker) does the broker keep a message back, which then never
    /// arrives; the bound keeps such a message out of memory, as `MQTTConfiguration.incomingBufferBytes` bounds what
    /// waits.
    static func maximumPacketSize(payloadSizeLimit: Int) -> Int {
        max(payloadSizeLimit * 2, 1 << 20) + 4096
    }

    /// The gateway's services (see the drawing above); the health report runs beside them (`healthReporter`).
    public var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        let bluez = BlueZService(
            sessions: sessions, adapters: adapters, notifier: notifier, leftoversRead: leftovers.read, fleet: fleet)
        // The log topic first, so that it stops last: the devices' last lines still go.
        let broker = BrokerService(
            context: context, notifier: notifier, info: info, routes: receivePath.routes,
            inside: [
                LogTopicService(log: logTopic, mqtt: context.mqtt), bluez, CommandReceiverService(path: receivePath),
            ])
        let outermost: [any Service] = [broker, WatchdogService(context: context, notifier: notifier)]
        // A lost bus ends the group gracefully: `offline` still reaches the broker, and then the error ends the run.
        let busWatch = ServiceGroupConfiguration.ServiceConfiguration(
            service: SystemBusWatch(bluez: context.bluez), successTerminationBehavior: .gracefullyShutdownGroup,
            failureTerminationBehavior: .gracefullyShutdownGroup)
        // A requested restart as well: the error, after the graceful shutdown, is the daemon's exit status 75.
        let restart = ServiceGroupConfiguration.ServiceConfiguration(
            service: RestartService(signal: restartSignal), successTerminationBehavior: .gracefullyShutdownGroup,
            failureTerminationBehavior: .gracefullyShutdownGroup)
        return outermost.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) } + [
            busWatch, restart,
        ]
    }

    // MARK: Health

    /// The service that publishes this gateway's health report.
    public var healthReporter: HealthReporter {
        HealthReporter(
            publisher: context.publisher, interval: configuration.healthInterval, counters: { self.counters },
            logger: context.logger)
    }

    /// Each family's commands with working payloads, for the live page's forms.
    public var commandCatalogue: [DeviceFamily: [CommandExample]] {
        Dictionary(uniqueKeysWithValues: context.drivers.map { ($0.family, $0.commandExamples) })
    }

    /// How the live page shows each family's devices.
    public var livePageCards: [DeviceFamily: LivePageCard] {
        Dictionary(uniqueKeysWithValues: context.drivers.map { ($0.family, $0.livePage) })
    }

    /// Totals since the start, for `/metrics` and the health report.
    public var counters: GatewayCounters {
        let statistics = context.mqtt.statistics
        return GatewayCounters(
            messagesIn: statistics.messagesReceived, messagesOut: statistics.messagesPublished,
            brokerReconnects: statistics.reconnects, droppedMessages: statistics.droppedMessages,
            oversizedMessages: statistics.oversizedMessages + receivePath.oversizedMessages.load(ordering: .relaxed),
            droppedNotifications: context.bluez.droppedNotifications,
            refusedClaims: fleet?.coordinator.refusedClaims ?? 0,
            sessions: sessions.table.countsByState,
            devices: sessions.metrics.snapshot.mapValues(GatewayCounters.Device.init),
            residentBytes: HealthReport.residentBytes(), uptimeSeconds: (ContinuousClock.now - started) / .seconds(1))
    }
}
