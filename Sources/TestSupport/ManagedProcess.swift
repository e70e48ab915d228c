import Foundation
import Locks

/// A child process for a test: launched with its output captured line by line, awaited on
/// events (a line, its exit) rather than sleeps, and never left behind.
///
/// The child is killed (SIGKILL) when this object is released while the child still runs, and
/// at the latest when the test runner exits normally, so a failing test does not orphan it.
public final class ManagedProcess: Sendable {
    /// Thrown when a wait on the process times out; carries the output's tail for diagnosis.
    public struct WaitFailure: Error, CustomStringConvertible, Sendable {
        /// What was awaited and why it failed.
        public let reason: String
        /// The last lines of output.
        public let output: String

        /// A sentence followed by the output.
        public var description: String { "\(reason)\n--- last output ---\n\(output)" }
    }

    /// A short name for logs and errors (the executable's file name by default).
    public let name: String
    /// The child's process ID.
    public let processIdentifier: Int32
    private let output: ProcessOutput

    private init(name: String, processIdentifier: Int32, output: ProcessOutput, input: FileHandle?) {
        self.name = name
        self.processIdentifier = processIdentifier
        self.output = output
        self.input = input
    }

    /// The child's stdin, when launched with `standardInput: true`.
    private let input: FileHandle?

    /// Writes one line to the child's stdin (launched with `standardInput: true`).
    public func send(line: String) throws {
        guard let input else { throw POSIXFailure("\(name) was launched without a standard input") }
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    deinit {
        if output.exit == nil {
            Spawn.signal(processIdentifier, SIGKILL)
        }
    }

    /// Launches `executable` (a path, or a name looked up by `ExecutableLocator`).
    ///
    /// - Parameters:
    ///   - environment: variables added to (or replacing those in) the runner's environment.
    ///   - logFile: where to copy every output line, for reading after a failed run.
    public static func launch(
        _ executable: String,
        arguments: [String] = [],
        environment: [String: String] = [:],
        workingDirectory: String? = nil,
        name: String? = nil,
        logFile: String? = nil,
        standardInput: Bool = false
    ) throws -> ManagedProcess {
        let path = try ExecutableLocator.find(executable)
        let name = name ?? URL(fileURLWithPath: path).lastPathComponent
        let output = ProcessOutput(name: name, logFile: logFile)
        let stateFolder = try ownStateFolder(unless: environment)
        // The machine's declarations folder (/etc/gatt2mqtt/devices.d) is not the test's: a path that cannot be a
        // folder, unless the test names one.
        let environment = ["GATT2MQTT_DEVICES_DECLARATIONS": Self.noDeclarations]
            .merging(ProcessInfo.processInfo.environment) { _, new in new }
            .merging(environment) { _, new in new }
            .merging(stateFolder.map { ["STATE_DIRECTORY": $0] } ?? [:]) { _, new in new }
        let spawned: Spawn.Started
        do {
            spawned = try Spawn.start(
                path: path, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
                standardInput: standardInput)
        } catch {
            if let stateFolder { try? FileManager.default.removeItem(atPath: stateFolder) }
            throw error
        }
        LiveChildren.add(spawned.pid, stateFolder: stateFolder)
        output.startReading(spawned.stdout, as: .stdout)
        output.startReading(spawned.stderr, as: .stderr)
        Spawn.reap(spawned.pid) { exit in
            LiveChildren.remove(spawned.pid)
            if let stateFolder { try? FileManager.default.removeItem(atPath: stateFolder) }
            output.exited(exit)
        }
        return ManagedProcess(name: name, processIdentifier: spawned.pid, output: output, input: spawned.stdin)
    }

    /// The declarations folder of every child that names none: no folder can be there.
    public static let noDeclarations = "/dev/null/declarations"

    /// A new empty folder for a child whose `environment` names no state directory, to be its systemd
    /// `STATE_DIRECTORY`: the place gatt2mqtt keeps its state (and reads its options) when nothing else names one.
    /// Without it a daemon started by a test would use the machine's /var/lib/gatt2mqtt (its incarnation, its
    /// adoptions, an options.json another run left there). As systemd's, it only replaces the default: a flag,
    /// the file's `state_directory` or GATT2MQTT_STATE_DIRECTORY still win. Removed when the child has ended.
    private static func ownStateFolder(unless environment: [String: String]) throws -> String? {
        guard environment["STATE_DIRECTORY"] == nil, environment["GATT2MQTT_STATE_DIRECTORY"] == nil else {
            return nil
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatt2mqtt-child-state-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every line so far, in arrival order (stdout and stderr interleaved as read).
    public var lines: [OutputLine] { output.lines }

    /// How many lines have arrived; pass it as `after:` to wait only for newer lines.
    public var lineCount: Int { output.lineCount }

    /// All output so far, one line per line, prefixed by stream.
    public var outputText: String { output.tail(Int.max) }

    /// The last `count` lines of output, one line per line, prefixed by stream.
    public func outputTail(_ count: Int) -> String { output.tail(count) }

    /// How the process ended, or nil while it runs.
    public var exit: ProcessExit? { output.exit }

    /// Whether the process is still running.
    public var isRunning: Bool { output.exit == nil }

    /// Waits for a line (at index `after` or later) for which `predicate` is true and returns
    /// it. Fails early if the process closes its output first.
    @discardableResult
    public func waitForLine(
        after: Int = 0,
        timeout: Duration = .seconds(10),
        matching predicate: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        let output = output
        do {
            return try await withTimeout(timeout, "a line from \(name)") {
                try await output.waitForLine(after: after, where: predicate)
            }
        } catch let error as TimeoutError {
            throw WaitFailure(reason: error.description, output: output.tail())
        } catch let error as OutputEnded {
            throw WaitFailure(reason: error.description, output: output.tail())
        }
    }

    /// Waits for a line containing `text` (at index `after` or later) and returns it.
    @discardableResult
    public func waitForLine(containing text: String, after: Int = 0, timeout: Duration = .seconds(10))
        async throws -> String
    {
        do {
            return try await waitForLine(after: after, timeout: timeout) { $0.contains(text) }
        } catch let error as WaitFailure {
            throw WaitFailure(reason: "\(error.reason) (containing '\(text)')", output: error.output)
        }
    }

    /// Waits for the process to end by itself and for its output to be read to the end (so a
    /// process whose children keep its stdout open counts as running until they exit too).
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(10)) async throws -> ProcessExit {
        let output = output
        do {
            return try await withTimeout(timeout, "\(name) to exit") { try await output.waitForExit() }
        } catch let error as TimeoutError {
            throw WaitFailure(reason: error.description, output: output.tail())
        }
    }

    /// Sends `signal` (e.g. SIGKILL to simulate a crash) to the process and anything it
    /// started (it leads its own process group), without waiting.
    public func send(_ signal: Int32) {
        guard output.exit == nil else { return }
        Spawn.signal(processIdentifier, signal)
    }

    /// Freezes the process (SIGSTOP) and returns once the kernel reports it stopped (`/proc/<pid>/stat`): a signal is
    /// delivered asynchronously, and a test that acts on a frozen device must not act before it is. Throws with the
    /// state it saw when it is not stopped within `timeout`.
    public func freeze(timeout: Duration = .seconds(5)) async throws {
        send(SIGSTOP)
        let deadline = ContinuousClock.now + timeout
        var state = "?"
        while ContinuousClock.now < deadline {
            state = Self.schedulingState(of: processIdentifier) ?? "gone"
            if state == "T" || state == "t" { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw POSIXFailure("\(name) (pid \(processIdentifier)) not stopped \(timeout) after SIGSTOP: state \(state)")
    }

    /// The state letter of `/proc/<pid>/stat` (R, S, D, T, Z…), nil when there is none.
    static func schedulingState(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.range(of: ") ", options: .backwards)
        else { return nil }
        return stat[afterName.upperBound...].first.map(String.init)
    }

    /// Stops the process: SIGTERM, then SIGKILL if it is still running after `grace`; returns
    /// once it has been reaped. Does nothing more if it already ended.
    @discardableResult
    public func terminate(grace: Duration = .seconds(5)) async -> ProcessExit? {
        if let exit = output.exit { return exit }
        let output = output
        send(SIGTERM)
        if let exit = try? await withTimeout(grace, "\(name) to exit", { try await output.waitForExit() }) {
            return exit
        }
        send(SIGKILL)
        return try? await withTimeout(.seconds(10), "\(name) to die", { try await output.waitForExit() })
    }
}

/// Children still running, killed when the runner exits normally, because a test that
/// forgets (or fails before) cleanup would otherwise leave brokers listening after the run.
private enum LiveChildren {
    /// Each running child, with the state folder made for it: a child still running when the test process exits
    /// (one a whole run shares) is never reaped, so its folder goes here (it was left in /tmp, two a run).
    private static let children: Mutex<[Int32: String]> = {
        atexit {
            for (pid, stateFolder) in LiveChildren.drain() {
                Spawn.signal(pid, SIGKILL)
                if !stateFolder.isEmpty { try? FileManager.default.removeItem(atPath: stateFolder) }
            }
        }
        return Mutex([:])
    }()

    static func add(_ pid: Int32, stateFolder: String?) { children.withLock { $0[pid] = stateFolder ?? "" } }
    static func remove(_ pid: Int32) { _ = children.withLock { $0.removeValue(forKey: pid) } }
    static func drain() -> [Int32: String] {
        children.withLock { children in
            defer { children = [:] }
            return children
        }
    }
}
