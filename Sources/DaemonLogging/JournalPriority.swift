import Logging

/// The syslog priority journald reads from a `<N>` prefix on each line of a stream (sd-daemon(3)):
/// swift-log's seven levels on syslog's eight (trace and debug are both 7, and nothing is emergency or alert).
public enum JournalPriority {
    public static func of(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
