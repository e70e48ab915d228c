import DaemonConfiguration
import DaemonLogging
import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP (`systemctl reload gatt2mqtt`) reads the configuration again, from the same file, environment and
/// flags, and applies its log levels at once (the journal's, `log_level`, and the log topic's, `log_level_mqtt`): a
/// busy gateway can be made to say more, or a fleet's operator to hear more, without a restart that would drop its
/// links. Every other setting takes effect at the next start, which the log says.
struct LogLevelReloader: Service {
    let commandLine: CommandLineSettings
    let threshold: LogThreshold
    let tap: LogTap
    let logger: Logger

    func run() async throws {
        let hangUps = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangUps.cancelOnGracefulShutdown() {
            reload()
        }
    }

    private func reload() {
        let loaded: LoadedConfiguration
        do {
            loaded = try ConfigurationLoader.load(commandLine: commandLine)
        } catch {
            logger.error(
                "SIGHUP: configuration error, log level left at \(threshold.level), on MQTT at \(Self.name(tap.level)): \(error)"
            )
            return
        }
        let (before, beforeMQTT) = (threshold.level, tap.level)
        threshold.level = loaded.logLevel
        tap.level = loaded.logLevelMQTT
        // Said at notice or above whatever the new level, so the change itself is always in the log.
        logger.notice(
            "SIGHUP: log level \(before) → \(loaded.logLevel), on MQTT \(Self.name(beforeMQTT)) → \(Self.name(loaded.logLevelMQTT)); other settings take effect at the next start"
        )
    }

    /// A log topic's level as the configuration spells it.
    private static func name(_ level: Logger.Level?) -> String {
        level?.rawValue ?? "off"
    }
}
