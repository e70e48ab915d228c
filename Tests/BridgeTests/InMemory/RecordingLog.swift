import DaemonLogging
import Locks
import Logging

/// A log kept in memory: every line (message and metadata, as one text) in order, and waits for a line
/// that contains a text, answered as it is written (no sleeping). Each line is also offered to `tap`, as the
/// daemon's handlers offer theirs.
final class RecordingLog: Sendable {
    let tap: LogTap?

    init(tap: LogTap? = nil) {
        self.tap = tap
    }

    private struct Waiter {
        var text: String
        var continuation: CheckedContinuation<Void, Never>
    }

    private let state = Mutex<(lines: [String], waiters: [Waiter])>(([], []))

    var lines: [String] { state.withLock { $0.lines } }

    /// A logger whose lines (debug and above) are kept here.
    func logger(label: String = "gateway") -> Logger {
        var logger = Logger(label: label) { Handler(log: self, label: $0) }
        logger.logLevel = .debug
        return logger
    }

    func write(_ line: String) {
        let ready = state.withLock { state -> [Waiter] in
            state.lines.append(line)
            let ready = state.waiters.filter { line.contains($0.text) }
            state.waiters.removeAll { line.contains($0.text) }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once a line containing `text` is written (at once if one was).
    func waitForLine(containing text: String) async {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> Bool in
                if state.lines.contains(where: { $0.contains(text) }) { return true }
                state.waiters.append(Waiter(text: text, continuation: continuation))
                return false
            }
            if found { continuation.resume() }
        }
    }

    private struct Handler: LogHandler {
        let log: RecordingLog
        let label: String
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            log.write("\(event.level) \(event.message)" + (fields.isEmpty ? "" : " " + fields))
            log.tap?.offer(level: event.level, label: label, message: "\(event.message)", metadata: merged)
        }
    }
}
