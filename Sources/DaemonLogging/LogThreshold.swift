import Logging
import Synchronization

/// The process's log level, shared by every logger, so that it can change while the daemon runs
/// (SIGHUP reloads it from the configuration) without a restart.
public final class LogThreshold: Sendable {
    private let stored: Atomic<UInt8>

    public init(_ level: Logger.Level) {
        stored = Atomic(Self.code(level))
    }

    public var level: Logger.Level {
        get { Logger.Level.allCases[Int(stored.load(ordering: .relaxed))] }
        set { stored.store(Self.code(newValue), ordering: .relaxed) }
    }

    private static func code(_ level: Logger.Level) -> UInt8 {
        UInt8(Logger.Level.allCases.firstIndex(of: level)!)
    }
}
