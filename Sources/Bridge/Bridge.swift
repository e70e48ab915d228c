import BlueZ
import Logging
import MQTT
import Locks
import struct Synchronization.Atomic

/// What the gateway's services share: the broker client, the BlueZ client, the sessions and the users'
/// choices. The services themselves (`services`) do the work, each with one job.
///
/// Commands are parsed on the receive path and handed to the device's own queue, so a slow device never
/// holds up the broker connection or another device.
public final class Bridge: Sendable {
    public let configuration: BridgeConfiguration
    let topics: TopicMap
    let logger: Logger
    let mqtt: any BrokerConnection
    let publisher: BrokerPublisher
    /// Commands from the broker to the devices' queues, and their replies.
    let commandRouter: CommandRouter
    /// The configs Home Assistant has been sent.
    let homeAssistant: HomeAssistantAnnouncer
    let drivers: [any FamilyDriver]
    /// The sessions, found by object path, `<family>/<id>` and address, and the devices that wait for a slot.
    let sessions = SessionTable()
    /// The users' choices and what the device policy learnt of each address.
    let choices = Mutex(DeviceChoices())
    /// The `scan` request's window, and the adapters' statuses: each owns its state.
    let scanWindow = ScanWindow(seenLimit: DeviceChoices.strangerLimit)
    let adapterStatuses: AdapterStatusBoard
    let metrics = DeviceMetrics()
    /// This gateway's part in a fleet; nil for a gateway on its own.
    let fleet: FleetCoordinator?
    /// Gateway requests, scan ends and inventory updates, which run beside the receive path; ended at shutdown.
    let background = OwnedTasks()
    /// Warnings that other clients on the broker can cause, at most a few a minute each.
    let warnings: WarningLimiter
    /// Messages the receive path dropped for their size.
    let oversizedMessages = Atomic<Int>(0)
    /// Gateway requests admitted per second, and running at once.
    static let requestsPerSecond = 5.0
    let requestLimiter = Mutex(CommandRateLimiter(perSecond: Bridge.requestsPerSecond, burst: 10))
    let requestsInFlight = InFlightLimit(4)
    let started = ContinuousClock.now
    /// BlueZ: on the system bus (or `DBUS_SYSTEM_BUS_ADDRESS`), or in memory under test.
    let bluez: any BluetoothCentral
    let notifier: SystemdNotifier
    /// Fired when the retained `info` of an earlier run has been read (the gateway's own retained status came
    /// back after it): BlueZ starts then, or after 3 s.
    let leftoversRead = OneShotSignal()

    /// The gateway on the system bus's BlueZ and the configured broker.
    public convenience init(configuration: BridgeConfiguration, logger: Logger, notifier: SystemdNotifier = SystemdNotifier()) throws {
        try self.init(
            configuration: configuration, logger: logger, notifier: notifier,
            broker: { try MQTTClient(configuration: $0, logger: Logger(label: "gatt2mqtt.mqtt")) },
            central: BlueZCentral(acquireNotify: configuration.acquireNotify))
    }

    /// The gateway on any broker and any BlueZ (the seam a gateway under test runs on): `broker` makes the
    /// connection from the settings the gateway chose (its will, a persistent session, its limits).
    init(
        configuration: BridgeConfiguration, logger: Logger, notifier: SystemdNotifier,
        broker: (MQTTConfiguration) throws -> any BrokerConnection, central: any BluetoothCentral
    ) throws {
        guard TopicMap.isValidGatewayName(configuration.gateway) else {
            throw CommandError(.invalidValue, "gateway name '\(configuration.gateway)' may only hold letters, digits, '-' and '_', at most 64 of them")
        }
        self.configuration = configuration
        self.logger = logger
        adapterStatuses = AdapterStatusBoard(adapters: configuration.adapters)
        drivers = FamilyRegistry.drivers.map { $0.init(configuration: configuration) }
        topics = TopicMap(gateway: configuration.gateway, baseTopic: configuration.baseTopic)
        fleet = try configuration.fleet.map { options in
            let incarnation = try Incarnation.forGateway(options) { logger.notice("\($0)") }
            return FleetCoordinator(gateway: configuration.gateway, incarnation: incarnation, options: options)
        }
        var mqttConfiguration = configuration.mqtt
        // A persistent session: QoS 1 commands sent while the gateway is cut off wait at the broker.
        mqttConfiguration.cleanStart = false
        // After a reconnect the broker delivers every command queued meanwhile at once: never drop one.
        // The bytes that wait are bounded apart (MQTTConfiguration.incomingBufferBytes, 64 MiB): that many messages
        // of the largest size taken would be gigabytes.
        mqttConfiguration.incomingBufferSize = max(mqttConfiguration.incomingBufferSize, 65_536)
        // Twice what a command may be, and room for topic and properties: a command up to that is answered that it is
        // too large; anything larger (other clients' payloads of up to 256 MB on a shared broker) never arrives.
        mqttConfiguration.maximumPacketSize = configuration.payloadSizeLimit * 2 + 4096
        if mqttConfiguration.protocolVersion == .v5 { mqttConfiguration.sessionExpiry = configuration.sessionExpirySeconds }
        mqttConfiguration.will = MQTTMessage(topic: topics.status, string: "offline", qos: .atLeastOnce, retain: true)
        mqtt = try broker(mqttConfiguration)
        if fleet != nil {
            // A device's retained state waits after a reconnect until the fleet says the device is still this
            // gateway's (Bridge+Fleet.swift): cut off, it may have passed to another gateway, whose state it would
            // otherwise overwrite.
            let topics = topics
            mqtt.withholdOnRestore { topics.parseLeaf($0) != nil }
        }
        let warnings = WarningLimiter()
        self.warnings = warnings
        publisher = BrokerPublisher(
            client: mqtt, topics: topics, logger: logger, discoveryPrefix: configuration.homeAssistant.discoveryPrefix, warnings: warnings)
        commandRouter = CommandRouter(
            drivers: drivers, publisher: publisher, logger: logger, payloadSizeLimit: configuration.payloadSizeLimit,
            commandRate: configuration.commandRate)
        homeAssistant = HomeAssistantAnnouncer(
            discovery: HomeAssistantDiscovery(topics: topics, fleet: fleet != nil, prefix: configuration.homeAssistant.discoveryPrefix),
            publisher: publisher, enabled: configuration.homeAssistant.enabled)
        bluez = central
        self.notifier = notifier
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

    /// How the live page shows each family's devices.
    public var livePageCards: [DeviceFamily: LivePageCard] {
        Dictionary(uniqueKeysWithValues: drivers.map { ($0.family, $0.livePage) })
    }

    /// Totals since the start, for `/metrics` and the health report.
    public var counters: GatewayCounters {
        let statistics = mqtt.statistics
        return GatewayCounters(
            messagesIn: statistics.messagesReceived, messagesOut: statistics.messagesPublished,
            brokerReconnects: statistics.reconnects, droppedMessages: statistics.droppedMessages,
            oversizedMessages: statistics.oversizedMessages + oversizedMessages.load(ordering: .relaxed),
            droppedNotifications: bluez.droppedNotifications, refusedClaims: fleet?.refusedClaims ?? 0, sessions: sessions.countsByState,
            devices: metrics.snapshot.mapValues(GatewayCounters.Device.init),
            residentBytes: HealthReport.residentBytes(), uptimeSeconds: (ContinuousClock.now - started) / .seconds(1))
    }
}
