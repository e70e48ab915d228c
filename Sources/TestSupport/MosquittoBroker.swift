import Foundation
import Locks

/// A real mosquitto broker on 127.0.0.1 for one test, in a temporary directory of its own.
///
/// It logs everything to stderr (unbuffered, unlike its stdout into a pipe), so tests can wait
/// on broker events ("New client connected", "Received SUBSCRIBE", …) through `process`.
/// Killed, and its directory removed, when released.
public final class MosquittoBroker: Sendable {
    /// How the broker is configured.
    public struct Options: Sendable {
        /// Keep retained messages and sessions across `restart()` (written on clean shutdown).
        public var persistence = false
        /// Accept clients without credentials.
        public var allowAnonymous = true
        /// User name → password, written to a password file with `mosquitto_passwd`.
        public var users: [String: String] = [:]
        /// Further lines for mosquitto.conf.
        public var extraConfiguration: [String] = []

        /// Default options: anonymous access, no persistence.
        public init() {}
    }

    /// Thrown when the broker does not come up.
    public struct StartFailure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, with the broker's output.
        public let description: String

        /// Creates a failure with an explanation.
        public init(description: String) { self.description = description }
    }

    /// The TCP port it listens on (kept across restarts).
    public let port: Int
    /// The temporary directory with its configuration, password file, database and log.
    public let directory: String
    /// The options it was started with.
    public let options: Options
    private let current: Mutex<ManagedProcess?>
    private let starts = Mutex(0)

    /// `mqtt://127.0.0.1:PORT`.
    public var url: String { "mqtt://127.0.0.1:\(port)" }

    /// The running broker process (nil while stopped); a new one after each restart.
    public var process: ManagedProcess? { current.withLock { $0 } }

    /// Writes a configuration and starts a broker on `port` (a free one by default); returns
    /// once it accepts connections.
    public static func start(
        options: Options = Options(), port: Int? = nil, timeout: Duration = .seconds(10)
    ) async throws -> MosquittoBroker {
        // A port that was free a moment ago can be taken meanwhile (an outgoing connection's ephemeral port
        // is enough; seen once as "mosquitto exited with status 1"): a port of our own choosing gets two more
        // tries, each on a new port. A port the caller chose is used once.
        var attempt = 1
        while true {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("mosquitto-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let broker = MosquittoBroker(port: try port ?? FreePort.allocate(), directory: directory, options: options)
            do {
                try await broker.writeConfiguration()
                try await broker.launch(timeout: timeout)
                return broker
            } catch  where port == nil && attempt < 3 {
                attempt += 1
            }
        }
    }

    private init(port: Int, directory: String, options: Options) {
        self.port = port
        self.directory = directory
        self.options = options
        self.current = Mutex(nil)
    }

    deinit {
        // Releasing the process kills it; the files go with the directory.
        current.withLock { $0 = nil }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the broker (SIGTERM, so a persistent broker saves its database).
    public func stop() async {
        let process = current.withLock { process in
            defer { process = nil }
            return process
        }
        await process?.terminate()
    }

    /// Stops the broker and starts a new one on the same port with the same configuration.
    public func restart(timeout: Duration = .seconds(10)) async throws {
        await stop()
        try await launch(timeout: timeout)
    }

    private var configurationPath: String { directory + "/mosquitto.conf" }

    private func writeConfiguration() async throws {
        var lines = [
            "listener \(port) 127.0.0.1",
            "allow_anonymous \(options.allowAnonymous)",
            "persistence \(options.persistence)",
            "persistence_location \(directory)/",
            "log_dest stderr",
            "log_type all",
            "connection_messages true",
            "log_timestamp false",
        ]
        // As root, mosquitto switches to user "mosquitto", which cannot write the test's
        // directory; staying root is fine for a throw-away test broker.
        if geteuid() == 0 { lines.append("user root") }
        if !options.users.isEmpty {
            let passwordFile = directory + "/passwd"
            for (user, password) in options.users.sorted(by: { $0.key < $1.key }) {
                let create = FileManager.default.fileExists(atPath: passwordFile) ? [] : ["-c"]
                let tool = try ManagedProcess.launch(
                    "mosquitto_passwd", arguments: create + ["-b", passwordFile, user, password])
                guard try await tool.waitForExit() == .exited(0) else {
                    throw StartFailure(description: "mosquitto_passwd failed:\n\(tool.outputText)")
                }
            }
            lines.append("password_file \(passwordFile)")
        }
        lines += options.extraConfiguration
        try (lines.joined(separator: "\n") + "\n").write(toFile: configurationPath, atomically: true, encoding: .utf8)
    }

    private func launch(timeout: Duration) async throws {
        let generation = starts.withLock { count in
            count += 1
            return count
        }
        let process = try ManagedProcess.launch(
            "mosquitto", arguments: ["-c", configurationPath], name: "mosquitto:\(port)",
            logFile: "\(directory)/broker-\(generation).log")
        current.withLock { $0 = process }
        // Readiness is the listening socket itself: poll connects until one is accepted.
        let port = port
        do {
            try await withTimeout(timeout, "mosquitto to listen on \(port)") {
                while !FreePort.isAccepting(port: port) {
                    if let exit = process.exit { throw StartFailure(description: "mosquitto \(exit)") }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        } catch {
            throw StartFailure(description: "\(error)\n--- broker output ---\n\(process.outputText)")
        }
    }
}
