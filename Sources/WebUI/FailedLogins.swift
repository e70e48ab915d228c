import Locks
import Logging

/// The server's `LoginThrottle`, shared by every connection, with the clock it reads and the log it writes to.
final class FailedLogins: Sendable {
    private let throttle: Mutex<LoginThrottle>
    private let now: @Sendable () -> ContinuousClock.Instant
    private let logger: Logger

    /// `now` is the continuous clock unless a test gives its own.
    init(
        policy: LoginThrottle.Policy = .init(), logger: Logger,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        throttle = Mutex(LoginThrottle(policy: policy))
        self.now = now
        self.logger = logger
    }

    func verdict(for source: SourceAddress) -> LoginThrottle.Verdict {
        let now = now()
        return throttle.withLock { $0.verdict(for: source, at: now) }
    }

    func failed(_ source: SourceAddress) {
        let now = now()
        guard let line = throttle.withLock({ $0.failed(source, at: now) }) else { return }
        var metadata: Logger.Metadata = [
            "source": "\(line.source)", "failures": "\(line.failures)", "since_last_line": "\(line.sinceLastLine)",
        ]
        if let penalty = line.penalty { metadata["refused_for_s"] = "\(Self.seconds(penalty))" }
        // A typo is worth a notice; a source being slowed down is worth a warning.
        logger.log(level: line.penalty == nil ? .notice : .warning, "live page: wrong credentials", metadata: metadata)
    }

    func succeeded(_ source: SourceAddress) {
        throttle.withLock { $0.succeeded(source) }
    }

    /// Whole seconds, rounded up: `Retry-After` takes no fractions, and rounding down would invite a retry too early.
    static func seconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return attoseconds > 0 ? seconds + 1 : max(seconds, 0)
    }
}
