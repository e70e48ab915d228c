import ArgumentParser
import Bridge
import DaemonConfiguration
import DaemonLogging
import Logging
import ServiceLifecycle
import WebUI

// `--print-completion bash`.
extension CompletionScript.Shell: ExpressibleByArgument {}

#if canImport(Glibc)
    import Glibc
#endif

/// `gatt2mqtt [--config FILE] [--broker mqtt://HOST:PORT] [--adapter hci0 …] [--gateway NAME] …`
///
/// Declares only the flags that are not settings: every setting's flag comes from its key
/// (`SettingFlags`), and `ConfigurationLoader` merges them over the file and the environment and checks
/// everything.
@main
struct Gatt2MQTT: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt2mqtt",
        abstract: "Bridges Bluetooth LE peripherals (through BlueZ) to an MQTT broker.",
        discussion: """
            Settings come from, in rising precedence: the defaults, the YAML file (--config, or \
            GATT2MQTT_CONFIG; see examples/gatt2mqtt.yaml), the options changed over MQTT (request/options), \
            the environment (GATT2MQTT_ and the key in capitals, dots as underscores: GATT2MQTT_BROKER_URL), and \
            the flags below. The broker password is read from broker.password_file or GATT2MQTT_MQTT_PASSWORD, \
            never from a flag.

            BlueZ is reached on the system bus, or on DBUS_SYSTEM_BUS_ADDRESS when it is set.

            SIGHUP reloads the log levels (the journal's and gatt2mqtt/<gateway>/log's) from the configuration.

            """ + SettingFlags.help,
        version: Gatt2MQTTVersion.current)

    @Option(help: "A YAML configuration file (default: GATT2MQTT_CONFIG, else none).")
    var config: String?

    @Flag(help: "Print the camera-grip profile in use as JSON (a start for your own file) and exit.")
    var printGripProfile = false

    @Flag(help: "Print the configuration in effect as YAML (the password left out) and exit.")
    var printConfig = false

    @Flag(help: "Print every setting (key, flag, environment variable, default, meaning) as Markdown and exit.")
    var printSettingsReference = false

    @Option(
        help: ArgumentHelp(
            "Write the state directory as one JSON backup to FILE ('-': standard output) and exit.",
            discussion:
                "It holds the adopted devices, the identities Home Assistant knows them by, the options changed over MQTT and the fleet incarnation; not the configuration file or its secrets.",
            valueName: "FILE"))
    var backup: String?

    @Option(
        help: ArgumentHelp(
            "Check a backup (from --backup or request/backup) whole and stage it: the gateway restores it when it next starts. Exits.",
            valueName: "FILE"))
    var restore: String?

    @Option(
        help: ArgumentHelp(
            "Check a device declaration (YAML) as the gateway reads it, say what it declares, and exit: 1 and the file, line and reason when it is refused.",
            valueName: "FILE"))
    var checkDeclaration: String?

    @Option(help: ArgumentHelp("Print the shell completion script for bash, zsh or fish and exit.", valueName: "SHELL"))
    var printCompletion: CompletionScript.Shell?

    /// The flags declared above, and ArgumentParser's own, for the completion scripts (`CompletionScript`, which adds
    /// every setting's); a test holds this list to `--help`.
    static let ownFlags: [CompletionScript.Flag] = [
        .init("--config", "A YAML configuration file", value: .file),
        .init("--print-grip-profile", "Print the camera-grip profile in use as JSON and exit", value: .none),
        .init("--print-config", "Print the configuration in effect as YAML and exit", value: .none),
        .init("--print-settings-reference", "Print every setting as Markdown and exit", value: .none),
        .init("--backup", "Write the state directory as one JSON backup and exit", value: .file),
        .init("--restore", "Check a backup and stage it for the next start", value: .file),
        .init("--check-declaration", "Check a device declaration and exit", value: .file),
        .init("--print-completion", "Print the shell completion script", value: .words(["bash", "zsh", "fish"])),
        .init("--version", "Show the version", value: .none),
        .init("--help", "Show help information", value: .none),
    ]

    /// Every setting's flag (`--broker mqtt://broker:1883`, `--a5-squeeze-newtons 25`), which the keys declare.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var settingFlags: [String] = []

    var commandLine: CommandLineSettings { CommandLineSettings(configFile: config, arguments: settingFlags) }

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
        if printSettingsReference {
            print(SettingsReference.markdown(), terminator: "")
            return
        }
        if let checkDeclaration {
            do throws(DeclarationCheck.Failure) {
                print(try DeclarationCheck.check(checkDeclaration))
                return
            } catch {
                LastWords.write("gatt2mqtt: \(error.description)")
                throw ExitCode.failure
            }
        }
        if let printCompletion {
            print(CompletionScript.script(for: printCompletion, own: Self.ownFlags), terminator: "")
            return
        }
        var loaded: LoadedConfiguration
        do {
            loaded = try ConfigurationLoader.load(commandLine: commandLine)
            // Before the state commands: a backup names the declared families' devices too.
            loaded.loadDeclarations()
        } catch {
            // A usage summary would bury the one line that matters; 78 is sysexits' EX_CONFIG.
            LastWords.write("gatt2mqtt: configuration error: \(error)")
            throw ExitCode(78)
        }
        if printConfig {
            if let unusable = loaded.unusableOptions {
                LastWords.write(
                    "gatt2mqtt: cannot use the options kept over MQTT (\(unusable.reason)); printed without them")
            }
            print(loaded, terminator: "")
            return
        }
        if printGripProfile {
            print(String(decoding: try loaded.bridge.gripProfile.json(), as: UTF8.self))
            return
        }
        do throws(StateCommands.Failure) {
            if let backup { return try StateCommands.backup(to: backup, loaded) }
            if let restore { return try StateCommands.restore(from: restore, loaded) }
        } catch {
            LastWords.write("gatt2mqtt: \(error.description)")
            throw ExitCode.failure
        }
        // The broker clients' own lines stay in the journal: they are about the connections that carry the topic.
        // Nothing is replaced in the lines (`LogRecord`): no secret is ever put into one.
        let tap = LogTap(
            level: loaded.logLevelMQTT, excluding: [Bridge.brokerLogLabel, LivePageServer.brokerLogLabel])
        let threshold = DaemonLogging.bootstrap(level: loaded.logLevel, tap: tap)
        let logger = Logger(label: "gatt2mqtt")
        do {
            // A restore staged by request/restore or --restore, before anything reads the state it replaces.
            loaded = try StateCommands.applyStagedRestore(loaded, commandLine: commandLine, logger: logger)
            loaded.loadDeclarations()
            // The restored options may set the log levels.
            threshold.level = loaded.logLevel
            tap.level = loaded.logLevelMQTT
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
        if let unusable = loaded.unusableOptions { logger.error("\(unusable.setAside())") }
        let bridge = try Bridge(
            configuration: loaded.bridge, logger: logger,
            options: DaemonOptions(loaded, threshold: threshold, tap: tap))
        // From here on the log topic takes the lines; the bridge publishes them once the broker session is up.
        let logTopic = bridge.logTopic
        tap.attach { logTopic.offer(level: $0.level, label: $0.label, message: $0.message, metadata: $0.metadata) }
        DeclarationStartLog.log(loaded.declarationCatalog, logger: logger)
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
