import Foundation
import Locks

/// One line a child process wrote.
public struct OutputLine: Sendable, CustomStringConvertible {
    /// Which of the child's streams the line came from.
    public enum Stream: String, Sendable {
        case stdout, stderr
    }

    /// The stream it was written to.
    public let stream: Stream
    /// The text, without the newline.
    public let text: String

    /// `[stream] text`, as in the log file.
    public var description: String { "[\(stream.rawValue)] \(text)" }
}

/// How a child process ended.
public enum ProcessExit: Sendable, Hashable, CustomStringConvertible {
    /// It called exit with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// A phrase for test failures.
    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "killed by signal \(signal)"
        }
    }
}

/// The output and exit of one child, shared by the reader threads, the termination handler and
/// the waiting tests. Separate from `ManagedProcess` so that the reader threads, which live
/// until the child's pipes close, do not keep the `ManagedProcess` (whose deinit kills the child)
/// alive.
final class ProcessOutput: Sendable {
    private struct LineWaiter {
        let after: Int
        let predicate: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<String, any Error>
    }

    private struct State {
        var lines: [OutputLine] = []
        var partial: [OutputLine.Stream: [UInt8]] = [:]
        var openStreams = 2
        var exit: ProcessExit?
        var nextID = 0
        var lineWaiters: [Int: LineWaiter] = [:]
        var exitWaiters: [Int: CheckedContinuation<ProcessExit, any Error>] = [:]
        /// Waits cancelled before their continuation was registered.
        var cancelledEarly: Set<Int> = []

        /// An exit is reported only once the output is read to the end too, so that a test
        /// that awaits the exit then sees every line the process wrote.
        var finished: ProcessExit? { openStreams == 0 ? exit : nil }

        /// Once the output is read to the end and the exit is known: exit waiters get the exit, and line
        /// waiters fail, since no line can come any more. Both must be known, so that a failure names how the
        /// process ended (its pipes close a moment before its reaper reports it).
        mutating func resumeWaitersIfDone(name: String) {
            guard let finished else { return }
            let waiters = exitWaiters
            exitWaiters = [:]
            for continuation in waiters.values { continuation.resume(returning: finished) }
            let lineWaiters = self.lineWaiters
            self.lineWaiters = [:]
            for waiter in lineWaiters.values {
                waiter.continuation.resume(throwing: OutputEnded(name: name, exit: finished))
            }
        }
    }

    let name: String
    private let state = Mutex(State())
    private let log: LogSink?

    init(name: String, logFile: String?) {
        self.name = name
        self.log = LogSink(path: logFile, name: name)
    }

    var lines: [OutputLine] { state.withLock { $0.lines } }
    var lineCount: Int { state.withLock { $0.lines.count } }
    var exit: ProcessExit? { state.withLock { $0.exit } }

    /// The last `count` lines, for failure messages.
    func tail(_ count: Int = 30) -> String {
        lines.suffix(count).map(\.description).joined(separator: "\n")
    }

    // MARK: Producers

    /// Reads `handle` until EOF on a thread of its own; blocking reads keep this simple and the
    /// thread ends when the child (and anything it spawned) closes the pipe.
    func startReading(_ handle: FileHandle, as stream: OutputLine.Stream) {
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                consume(Array(data), from: stream)
            }
            streamClosed(stream)
        }
        thread.name = "\(name)-\(stream.rawValue)"
        thread.start()
    }

    private func consume(_ bytes: [UInt8], from stream: OutputLine.Stream) {
        var complete: [OutputLine] = []
        state.withLock { state in
            var buffer = state.partial[stream, default: []] + bytes
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                complete.append(OutputLine(stream: stream, text: String(decoding: buffer[..<newline], as: UTF8.self)))
                buffer.removeSubrange(...newline)
            }
            state.partial[stream] = buffer
        }
        for line in complete { append(line) }
    }

    private func append(_ line: OutputLine) {
        log?.write(line)
        state.withLock { state in
            state.lines.append(line)
            let index = state.lines.count - 1
            for (id, waiter) in state.lineWaiters where index >= waiter.after && waiter.predicate(line.text) {
                state.lineWaiters[id] = nil
                waiter.continuation.resume(returning: line.text)
            }
        }
    }

    private func streamClosed(_ stream: OutputLine.Stream) {
        let rest = state.withLock { state in
            defer { state.partial[stream] = nil }
            return state.partial[stream] ?? []
        }
        if !rest.isEmpty { append(OutputLine(stream: stream, text: String(decoding: rest, as: UTF8.self))) }
        state.withLock { state in
            state.openStreams -= 1
            state.resumeWaitersIfDone(name: name)
        }
    }

    func exited(_ exit: ProcessExit) {
        log?.write(OutputLine(stream: .stderr, text: "-- \(name) \(exit)"))
        state.withLock { state in
            state.exit = exit
            state.resumeWaitersIfDone(name: name)
        }
    }

    // MARK: Waiting

    func waitForLine(after: Int, where predicate: @escaping @Sendable (String) -> Bool) async throws -> String {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else if let line = state.lines.dropFirst(max(after, 0)).first(where: { predicate($0.text) }) {
                        continuation.resume(returning: line.text)
                    } else if let exit = state.finished {
                        continuation.resume(throwing: OutputEnded(name: name, exit: exit))
                    } else {
                        state.lineWaiters[id] = LineWaiter(
                            after: after, predicate: predicate, continuation: continuation)
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                if let waiter = state.lineWaiters.removeValue(forKey: id) {
                    waiter.continuation.resume(throwing: CancellationError())
                } else {
                    state.cancelledEarly.insert(id)
                }
            }
        }
    }

    func waitForExit() async throws -> ProcessExit {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil {
                        continuation.resume(throwing: CancellationError())
                    } else if let exit = state.finished {
                        continuation.resume(returning: exit)
                    } else {
                        state.exitWaiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                if let continuation = state.exitWaiters.removeValue(forKey: id) {
                    continuation.resume(throwing: CancellationError())
                } else {
                    state.cancelledEarly.insert(id)
                }
            }
        }
    }
}

/// Thrown when a process ended, its output read to the end, before the awaited line appeared.
public struct OutputEnded: Error, CustomStringConvertible, Sendable {
    /// The process's name.
    public let name: String
    /// How it ended, if it had by then.
    public let exit: ProcessExit

    /// A sentence for test failures.
    public var description: String { "\(name) ended before the line came (\(exit))" }
}

/// Copies output lines to a file (for reading after a failed run) and, with the environment
/// variable `TESTSUPPORT_ECHO` set, to the test runner's stderr.
private final class LogSink: Sendable {
    private let file: Mutex<FileHandle?>
    private let echo: Bool
    private let name: String

    init?(path: String?, name: String) {
        let echo = ProcessInfo.processInfo.environment["TESTSUPPORT_ECHO"] != nil
        guard path != nil || echo else { return nil }
        var handle: FileHandle?
        if let path {
            // Close-on-exec: FileHandle(forWritingAtPath:) is not, and every child spawned later (other suites run
            // in parallel) would hold the log open.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if descriptor >= 0 { handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true) }
        }
        self.file = Mutex(handle)
        self.echo = echo
        self.name = name
    }

    func write(_ line: OutputLine) {
        let text = "\(line)\n"
        file.withLock { $0?.write(Data(text.utf8)) }
        if echo { FileHandle.standardError.write(Data("\(name) \(text)".utf8)) }
    }
}
