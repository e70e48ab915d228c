import DaemonConfiguration
import DaemonLogging
import Logging
import ServiceLifecycle
import UnixSignals

/// SIGHUP (`systemctl reload gatt2mqtt`) reads the configuration again, from the same file, environment and
/// flags, and applies its log level at once: a busy gateway can be made to say more without a restart that
/// would drop its links. Every other setting takes effect at the next start, which the log says.
struct LogLevelReloader: Service {
    let commandLine: CommandLineSettings
    let threshold: LogThreshold
    let logger: Logger

    func run() async throws {
        let hangUps = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangUps.cancelOnGracefulShutdown() {
            reload()
        }
    }

    private func reload() {
        let level: Logger.Level
        do {
            level = try ConfigurationLoader.load(commandLine: commandLine).logLevel
        } catch {
            logger.error("SIGHUP: configuration error, log level left at \(threshold.level): \(error)")
            return
        }
        let before = threshold.level
        threshold.level = level
        // Said at notice or above whatever the new level, so the change itself is always in the log.
        logger.notice("SIGHUP: log level \(before) → \(level); other settings take effect at the next start")
    }
}
