import Logging

/// The daemon's logging: journal lines with priorities when standard error is the journal, swift-log's
/// stream format elsewhere; one threshold for all loggers, changeable at run time; and a copy of the lines for the
/// gateway's log topic (`tap`).
public enum DaemonLogging {
    /// Bootstraps swift-log once for the process and returns the threshold to change later. Every line is also
    /// offered to `tap`.
    @discardableResult
    public static func bootstrap(
        level: Logger.Level, tap: LogTap? = nil, destination: LogDestination = .ofStandardError()
    ) -> LogThreshold {
        let threshold = LogThreshold(level)
        switch destination {
        case .journal:
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, threshold: threshold, tap: tap) }
        case .stream:
            LoggingSystem.bootstrap { ThresholdStreamLogHandler(label: $0, threshold: threshold, tap: tap) }
        }
        return threshold
    }
}
