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
        var texts: [String]
        var continuation: CheckedContinuation<String, Never>

        func matches(_ line: String) -> Bool { texts.contains { line.contains($0) } }
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
            let ready = state.waiters.filter { $0.matches(line) }
            state.waiters.removeAll { $0.matches(line) }
            return ready
        }
        for waiter in ready { waiter.continuation.resume(returning: line) }
    }

    /// Returns once a line containing `text` is written (at once if one was).
    func waitForLine(containing text: String) async {
        _ = await firstLine(containingAnyOf: [text])
    }

    /// The first line that contains one of `texts`, once one is written: a test that waits for one of two
    /// outcomes (the right one and the wrong one) ends either way instead of hanging on the one that never comes.
    func firstLine(containingAnyOf texts: [String]) async -> String {
        await withCheckedContinuation { continuation in
            let waiter = Waiter(texts: texts, continuation: continuation)
            let found = state.withLock { state -> String? in
                if let line = state.lines.first(where: waiter.matches) { return line }
                state.waiters.append(waiter)
                return nil
            }
            if let found { continuation.resume(returning: found) }
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
