import Logging

/// The daemon's logging: journal lines with priorities when standard error is the journal, swift-log's
/// stream format elsewhere; one threshold for all loggers, changeable at run time.
public enum DaemonLogging {
    /// Bootstraps swift-log once for the process and returns the threshold to change later.
    @discardableResult
    public static func bootstrap(level: Logger.Level, destination: LogDestination = .ofStandardError()) -> LogThreshold
    {
        let threshold = LogThreshold(level)
        switch destination {
        case .journal:
            LoggingSystem.bootstrap { JournalLogHandler(label: $0, threshold: threshold) }
        case .stream:
            LoggingSystem.bootstrap { ThresholdStreamLogHandler(label: $0, threshold: threshold) }
        }
        return threshold
    }
}
