import ArgumentParser
import Bridge
import DaemonConfiguration
import DaemonLogging
import Logging
import ServiceLifecycle
import WebUI

#if canImport(Glibc)
    import Glibc
#endif

/// `gatt2mqtt [--config FILE] [--broker mqtt://HOST:PORT] [--adapter hci0 …] [--gateway NAME] …`
///
/// Only parses flags: `ConfigurationLoader` merges them over the file and the environment and checks
/// everything.
@main
struct Gatt2MQTT: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt2mqtt",
        abstract: "Bridges Bluetooth LE peripherals (through BlueZ) to an MQTT broker.",
        discussion: """
            Settings come from, in rising precedence: the defaults, the YAML file (--config, or \
            GATT2MQTT_CONFIG; see examples/gatt2mqtt.yaml), the environment (GATT2MQTT_BROKER, \
            GATT2MQTT_ADAPTER, GATT2MQTT_GATEWAY, GATT2MQTT_LOG_LEVEL, GATT2MQTT_LOG_LEVEL_MQTT, GATT2MQTT_MQTT_USERNAME, \
            GATT2MQTT_MQTT_PASSWORD, GATT2MQTT_HEALTH_FILE), and these flags. The broker password is read from the file's \
            broker.password_file or GATT2MQTT_MQTT_PASSWORD, never from a flag.

            BlueZ is reached on the system bus, or on DBUS_SYSTEM_BUS_ADDRESS when it is set.

            SIGHUP reloads the log levels (the journal's and gatt2mqtt/<gateway>/log's) from the configuration.

            """ + FamilyFlags.help,
        version: Gatt2MQTTVersion.current)

    @Option(help: "A YAML configuration file (default: GATT2MQTT_CONFIG, else none).")
    var config: String?

    @Option(help: "The broker, as mqtt://HOST:PORT or mqtts://HOST:PORT (default mqtt://127.0.0.1:1883).")
    var broker: String?

    @Option(help: "A BlueZ adapter to be a central on (default hci0); repeat it for several.")
    var adapter: [String] = []

    @Option(help: "Connections each adapter holds at most (default 5).")
    var adapterSlots: Int?

    @Option(
        help: "This gateway's name in gatt2mqtt/<gateway>/… topics (letters, digits, '-', '_'; default: the host name)."
    )
    var gateway: String?

    @Option(help: "A topic prefix for every topic, so that two fleets can share a broker (default none).")
    var baseTopic: String?

    @Option(help: "MQTT protocol version: 5 or 3.1.1 (default 5).")
    var mqttVersion: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (default info).")
    var logLevel: String?

    @Option(
        help:
            "Log lines from this level on go to gatt2mqtt/<gateway>/log: trace, debug, info, notice, warning, error, critical, or off (default warning)."
    )
    var logLevelMQTT: String?

    @Option(
        help:
            "Which devices connect without a connect request: all, none, or allowed (only --allow addresses); default all."
    )
    var autoConnect: String?

    @Option(help: "An address that may connect by itself (repeat for more); implies --auto-connect allowed.")
    var allow: [String] = []

    @Option(help: "Seconds between health reports on gatt2mqtt/<gateway>/health.")
    var healthSeconds: Double?

    @Flag(
        help:
            "Subscribe to notifications with StartNotify only, never AcquireNotify (for a device or stack whose sockets misbehave)."
    )
    var startNotify = false

    @Flag(
        help:
            "Follow the fleet's rules even alone (by default they apply while another gateway is online on the broker)."
    )
    var fleet = false

    @Flag(help: "Never follow the fleet's rules: connect every device this gateway may, whatever other gateways do.")
    var noFleet = false

    @Option(help: "Fleet: seconds between claims (default 10); the same on every gateway of the fleet.")
    var fleetRefreshSeconds: Double?

    @Option(
        help: "Fleet: the file that keeps this gateway's incarnation (default /var/lib/gatt2mqtt/fleet-incarnation).")
    var fleetIncarnationFile: String?

    @Option(help: "Serve the live page and /metrics on [HOST:]PORT (default off; HOST defaults to 127.0.0.1).")
    var http: String?

    @Flag(help: "Print the camera-grip profile in use as JSON (a start for your own file) and exit.")
    var printGripProfile = false

    @Flag(help: "Print the configuration in effect as YAML (the password left out) and exit.")
    var printConfig = false

    /// The families' own flags (`--a5-squeeze-newtons 25`), which the families declare with their settings.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var familyFlags: [String] = []

    var commandLine: CommandLineSettings {
        var settings = CommandLineSettings()
        settings.configFile = config
        settings.broker = broker
        settings.adapters = adapter
        settings.adapterSlots = adapterSlots
        settings.startNotify = startNotify
        settings.gateway = gateway
        settings.baseTopic = baseTopic
        settings.mqttVersion = mqttVersion
        settings.logLevel = logLevel
        settings.logLevelMQTT = logLevelMQTT
        settings.autoConnect = autoConnect
        settings.allow = allow
        settings.healthSeconds = healthSeconds
        settings.fleet = fleet
        settings.noFleet = noFleet
        settings.fleetRefreshSeconds = fleetRefreshSeconds
        settings.fleetIncarnationFile = fleetIncarnationFile
        settings.http = http
        settings.familyFlags = familyFlags
        return settings
    }

    /// The entry point. A program that cannot read its command line must not run as if it had been given no
    /// flags: the Swift runtime reads it from /proc, and in a chroot without /proc (a fresh image, an
    /// installer) it found nothing, not even the program's name, so `gatt2mqtt --version` started the daemon.
    static func main() async {
        guard !CommandLine.arguments.isEmpty else {
            LastWords.write("gatt2mqtt: cannot read the command line (is /proc mounted?)")
            Glibc.exit(2)  // as for a usage error
        }
        await main(nil)
    }

    func run() async throws {
        let loaded: LoadedConfiguration
        do {
            loaded = try ConfigurationLoader.load(commandLine: commandLine)
        } catch {
            // A usage summary would bury the one line that matters; 78 is sysexits' EX_CONFIG.
            LastWords.write("gatt2mqtt: configuration error: \(error)")
            throw ExitCode(78)
        }
        if printConfig {
            print(loaded, terminator: "")
            return
        }
        if printGripProfile {
            print(String(decoding: try loaded.bridge.gripProfile.json(), as: UTF8.self))
            return
        }
        // The broker clients' own lines stay in the journal: they are about the connections that carry the topic.
        let tap = LogTap(
            level: loaded.logLevelMQTT, excluding: [Bridge.brokerLogLabel, LivePageServer.brokerLogLabel],
            redacting: loaded.secrets)
        let threshold = DaemonLogging.bootstrap(level: loaded.logLevel, tap: tap)
        let logger = Logger(label: "gatt2mqtt")
        do {
            try await serve(loaded, threshold: threshold, tap: tap, logger: logger)
        } catch is RestartRequested {
            // Stopped cleanly; the status asks systemd (RestartForceExitStatus=75) or the container runtime to start
            // the daemon again.
            logger.notice("restarting: exit status \(RestartRequested.exitStatus) for the supervisor to start it again")
            throw ExitCode(RestartRequested.exitStatus)
        } catch {
            // ArgumentParser would print the error bare, which the journal files at info: the line that says
            // why the daemon stopped is logged instead, at its priority.
            logger.critical("stopped: \(error)")
            throw ExitCode.failure
        }
    }

    private func serve(
        _ loaded: LoadedConfiguration, threshold: LogThreshold, tap: LogTap, logger: Logger
    ) async throws {
        logger.info(
            "gatt2mqtt \(Gatt2MQTTVersion.current) starting", metadata: ["configuration": "\(loaded.file ?? "none")"])
        logger.debug("configuration in effect:\n\(loaded)")
        for notice in loaded.notices { logger.warning("configuration: \(notice)") }
        let bridge = try Bridge(
            configuration: loaded.bridge, logger: logger,
            options: DaemonOptions(loaded, threshold: threshold, tap: tap))
        // From here on the log topic takes the lines; the bridge publishes them once the broker session is up.
        let logTopic = bridge.logTopic
        tap.attach { logTopic.offer(level: $0.level, label: $0.label, message: $0.message, metadata: $0.metadata) }
        let page = try loaded.http.map { options in
            try LivePageServer(
                options: options, mqtt: loaded.bridge.mqtt, gateway: loaded.bridge.gateway,
                baseTopic: loaded.bridge.baseTopic,
                catalogue: bridge.commandCatalogue, cards: bridge.livePageCards,
                metrics: MetricsEndpoint.bootstrap { bridge.counters },
                logger: Logger(label: "gatt2mqtt.http"))
        }
        // One graceful shutdown for all, on SIGTERM or SIGINT, in reverse order: the page, the health report,
        // then the bridge's own services (devices disconnected, `offline`, broker session closed). Any service
        // that ends or fails ends the daemon: a page that cannot listen stops it.
        var services = bridge.services
        services.append(.init(service: bridge.healthReporter, successTerminationBehavior: .gracefullyShutdownGroup))
        if let page { services.append(.init(service: page, successTerminationBehavior: .gracefullyShutdownGroup)) }
        services.append(
            .init(
                service: LogLevelReloader(commandLine: commandLine, threshold: threshold, tap: tap, logger: logger),
                successTerminationBehavior: .ignore))
        services.append(.init(service: ShutdownNotice(logger: logger), successTerminationBehavior: .ignore))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Says in the log when the daemon begins to stop: the service group logs the signal at debug only. Last
/// in the group, so the first to hear of the shutdown.
struct ShutdownNotice: Service {
    let logger: Logger

    func run() async throws {
        guard (try? await gracefulShutdown()) != nil else { return }
        logger.notice("shutting down")
    }
}
