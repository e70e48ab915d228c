import Locks
import Logging

import struct Synchronization.Atomic

/// A copy of the process's log lines for one more reader than standard error: the gateway, which publishes them on
/// `gatt2mqtt/<gateway>/log`. It has a level of its own (`log_level_mqtt`; SIGHUP changes it as it changes the
/// journal's), or none for off, and the handlers offer it every line, also below the journal's level.
///
/// A line reaches the receiver as a `LogRecord`: escaped as the journal's, cut to a size, nothing replaced. The
/// receiver is called on the thread that logs, and so must only take the line and return (the gateway queues it);
/// until one is attached, lines are not kept.
public final class LogTap: Sendable {
    /// The level's index in `Logger.Level.allCases`, or `off`.
    private let stored: Atomic<UInt8>
    private static let off = UInt8.max
    /// Loggers whose lines are never taken: the MQTT clients', which describe the very connection that would carry
    /// them (and, at debug, each of its packets, the log topic's own included).
    private let excludedLabels: Set<String>
    private let receiver = Mutex<(@Sendable (LogRecord) -> Void)?>(nil)

    /// - Parameters:
    ///   - level: lines at this level and above are taken; nil takes none.
    ///   - excludedLabels: loggers whose lines are never taken.
    public init(level: Logger.Level?, excluding excludedLabels: Set<String> = []) {
        stored = Atomic(Self.code(level))
        self.excludedLabels = excludedLabels
    }

    /// The level lines are taken from; nil when off.
    public var level: Logger.Level? {
        get {
            let code = stored.load(ordering: .relaxed)
            return code == Self.off ? nil : Logger.Level.allCases[Int(code)]
        }
        set { stored.store(Self.code(newValue), ordering: .relaxed) }
    }

    /// Where the taken lines go from now on (replacing any receiver before).
    public func attach(_ receiver: @escaping @Sendable (LogRecord) -> Void) {
        self.receiver.withLock { $0 = receiver }
    }

    /// No receiver any more: lines are not taken.
    public func detach() {
        receiver.withLock { $0 = nil }
    }

    /// Whether lines of the logger `label` may be taken at all: a handler keeps the tap only then, so that an
    /// excluded logger's level is the journal's alone.
    public func takes(_ label: String) -> Bool { !excludedLabels.contains(label) }

    /// Hands the line to the receiver when the tap takes it. `metadata` is the line's merged metadata, as the
    /// journal's handler writes it.
    public func offer(level: Logger.Level, label: String, message: @autoclosure () -> String, metadata: Logger.Metadata)
    {
        guard let from = self.level, level >= from, takes(label), let receiver = receiver.withLock({ $0 }) else {
            return
        }
        // Made outside the lock: escaping and cutting a long line must not hold up another thread's line.
        receiver(LogRecord(level: level, label: label, message: message(), logged: metadata))
    }

    private static func code(_ level: Logger.Level?) -> UInt8 {
        level.map { UInt8(Logger.Level.allCases.firstIndex(of: $0)!) } ?? off
    }
}

extension Logger.Level {
    /// The lower of a level and an optional other: the level a handler that feeds both must let through.
    static func lowest(_ level: Logger.Level, _ other: Logger.Level?) -> Logger.Level {
        other.map { Swift.min(level, $0) } ?? level
    }
}
