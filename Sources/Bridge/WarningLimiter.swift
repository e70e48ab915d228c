import Locks
import Logging

/// Keeps a warning that strangers on the broker can cause (an oversized message, a malformed value, a refused
/// claim, command or request) from filling the log: per kind, at most `burst` lines per `period`; the first line
/// after a quiet spell says how many were left out. Each of them is still counted or answered as before.
public final class WarningLimiter: Sendable {
    private struct Kind {
        var windowStart: ContinuousClock.Instant
        var written = 0
        var suppressed = 0
    }

    private let kinds = Mutex<[String: Kind]>([:])
    let burst: Int
    let period: Duration

    public init(burst: Int = 5, period: Duration = .seconds(60)) {
        self.burst = burst
        self.period = period
    }

    /// Writes `message` to `logger` as a warning if one of `kind` may be written now; the line says how many of
    /// that kind were left out before it.
    public func warn(_ message: @autoclosure () -> String, kind: String, metadata: Logger.Metadata, to logger: Logger) {
        log(.warning, message(), kind: kind, metadata: metadata, to: logger)
    }

    /// As `warn`, at `level`: for a line that strangers can cause as often as they like but that is no warning
    /// (another gateway said it is online).
    public func log(
        _ level: Logger.Level, _ message: @autoclosure () -> String, kind: String, metadata: Logger.Metadata,
        to logger: Logger
    ) {
        let (write, suppressed) = admit(kind)
        guard write else { return }
        var metadata = metadata
        if suppressed > 0 { metadata["suppressed"] = "\(suppressed)" }
        logger.log(level: level, "\(message())", metadata: metadata)
    }

    /// Whether a warning of `kind` may be written now, and how many of that kind were left out before it.
    func admit(_ kind: String, at now: ContinuousClock.Instant = .now) -> (write: Bool, suppressed: Int) {
        kinds.withLock { kinds in
            var entry = kinds[kind] ?? Kind(windowStart: now)
            if now - entry.windowStart >= period {
                entry.windowStart = now
                entry.written = 0
            }
            defer { kinds[kind] = entry }
            guard entry.written < burst else {
                entry.suppressed += 1
                return (false, 0)
            }
            entry.written += 1
            defer { entry.suppressed = 0 }
            return (true, entry.suppressed)
        }
    }
}
