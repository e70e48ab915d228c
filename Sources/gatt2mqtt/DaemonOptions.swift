import Bridge
import DaemonConfiguration
import DaemonLogging
import Logging
import Synchronization

/// `request/options` for the daemon: a change is checked against the configuration's layers as the file is
/// (`LoadedConfiguration.changing`), kept in the state directory before anything is applied, and the log levels,
/// which the daemon owns, are applied at once. One change at a time, each against the one before.
final class DaemonOptions: GatewayOptionsHandler {
    private let current: Mutex<LoadedConfiguration>
    private let threshold: LogThreshold
    private let tap: LogTap

    init(_ loaded: LoadedConfiguration, threshold: LogThreshold, tap: LogTap) {
        current = Mutex(loaded)
        self.threshold = threshold
        self.tap = tap
    }

    func change(_ options: [String: JSONValue]) async throws(CommandError) -> OptionsOutcome {
        let result = current.withLock { current -> Result<OptionsChange, ConfigurationError> in
            Result { () throws(ConfigurationError) -> OptionsChange in
                let change = try current.changing(options)
                // Kept first: a change that cannot be kept is not made.
                try change.persist()
                current = change.configuration
                return change
            }
        }
        let change: OptionsChange
        switch result {
        case .success(let made): change = made
        case .failure(let error): throw CommandError(.invalidValue, error.description)
        }
        var applied: Set<String> = []
        if change.changed.contains("log_level") {
            threshold.level = change.configuration.logLevel
            applied.insert("log_level")
        }
        if change.changed.contains("log_level_mqtt") {
            tap.level = change.configuration.logLevelMQTT
            applied.insert("log_level_mqtt")
        }
        return OptionsOutcome(
            configuration: change.configuration.bridge, changed: change.changed, appliedByDaemon: applied)
    }

    func checkRestored(_ options: [String: JSONValue]) throws(CommandError) {
        let result = current.withLock { current in
            Result { () throws(ConfigurationError) in try current.checkingRestored(options) }
        }
        if case .failure(let error) = result {
            throw CommandError(.invalidValue, "the backup's options: \(error.description)")
        }
    }
}
