import Foundation

/// A real Home Assistant for the tests: the release `scripts/homeassistant/install` keeps under
/// `.build/homeassistant` (installed once, in minutes; seconds after that), on a configuration folder and a
/// port of its own, onboarded, with its MQTT integration on a test broker. It is driven as its users' tools
/// drive it, through its REST and WebSocket APIs, by `scripts/homeassistant/hactl.py`. Stop it with `stop()`.
public final class HomeAssistantInstance: Sendable {
    /// Where it is installed: `.build/homeassistant`, or `GATT2MQTT_HA_HOME` (with `GATT2MQTT_HA_VERSION` for the
    /// installer) to try gatt2mqtt's configs on another release with the same test.
    public static let home =
        ProcessInfo.processInfo.environment["GATT2MQTT_HA_HOME"] ?? ProjectPaths.root + "/.build/homeassistant"
    static let python = home + "/venv/bin/python"
    static let hactl = ProjectPaths.root + "/scripts/homeassistant/hactl.py"

    public let url: String
    public let token: String
    public let configDirectory: String
    /// The release that runs, as Home Assistant reports it.
    public let version: String
    private let process: ManagedProcess

    /// Whether it takes a config per device (`homeassistant/device/<node>/config`): 2024.11 and later.
    public var takesDeviceConfigs: Bool {
        let parts = version.split(separator: ".").prefix(2).compactMap { Int($0) }
        return parts.count == 2 && (parts[0], parts[1]) >= (2024, 11)
    }

    private init(url: String, token: String, configDirectory: String, version: String, process: ManagedProcess) {
        self.url = url
        self.token = token
        self.configDirectory = configDirectory
        self.version = version
        self.process = process
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Installs Home Assistant if need be, starts it, onboards it and adds the MQTT integration on `brokerPort`.
    public static func start(brokerPort: Int) async throws -> HomeAssistantInstance {
        try await runToEnd(
            ProjectPaths.root + "/scripts/homeassistant/install", [home], name: "install-homeassistant",
            timeout: .seconds(900))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-ha-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let port = try FreePort.allocate()
        let url = "http://127.0.0.1:\(port)"
        _ = try await control(["configure", directory, "--port", "\(port)"])
        let process = try ManagedProcess.launch(
            home + "/venv/bin/hass",
            arguments: ["--config", directory, "--log-file", directory + "/home-assistant.log", "--log-no-color"],
            name: "hass")
        do {
            // Start-up on two busy cores can take minutes the first time (it compiles and caches translations).
            let onboarding = try await control(
                ["onboard", "--url", url, "--wait-seconds", "300"], timeout: .seconds(330))
            guard let token = (onboarding as? [String: Any])?["token"] as? String else {
                throw Failure(description: "onboard gave no token")
            }
            _ = try await control(
                ["add-mqtt", "--url", url, "--token", token, "--broker", "127.0.0.1", "--port", "\(brokerPort)"],
                timeout: .seconds(90))
            // Home Assistant writes the release that last ran a configuration beside it.
            let version = try String(contentsOfFile: directory + "/.HA_VERSION", encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            return HomeAssistantInstance(
                url: url, token: token, configDirectory: directory, version: version, process: process)
        } catch {
            await process.terminate(grace: .seconds(30))
            throw error
        }
    }

    /// One `hactl.py` subcommand against this instance (its URL and token added); its JSON answer.
    public func control(_ arguments: [String], timeout: Duration = .seconds(90)) async throws -> Any {
        try await Self.control(arguments, timeout: timeout, environment: ["HACTL_URL": url, "HACTL_TOKEN": token])
    }

    /// Home Assistant's log so far.
    public var log: String {
        (try? String(contentsOfFile: configDirectory + "/home-assistant.log", encoding: .utf8)) ?? ""
    }

    /// Home Assistant's warnings and errors so far but those containing any of `ignored`, each with the lines that
    /// follow it in the log (an exception's traceback): its first line alone names where, rarely why.
    public func complaints(ignoring ignored: [String]) -> [String] {
        Self.complaints(in: log, ignoring: ignored)
    }

    /// `complaints(ignoring:)` of a log's text.
    public static func complaints(in log: String, ignoring ignored: [String]) -> [String] {
        // An entry starts with its date ("2026-12-05 12:27:30.135 ERROR (MainThread) [...] ...").
        var entries: [String] = []
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.first?.isNumber == true || entries.isEmpty {
                entries.append(String(line))
            } else {
                entries[entries.count - 1] += "\n" + line
            }
        }
        return entries.filter { entry in
            let first = entry.prefix { $0 != "\n" }
            return (first.contains(" WARNING ") || first.contains(" ERROR "))
                && !ignored.contains { first.contains($0) }
        }
    }

    /// Stops Home Assistant (SIGTERM; it takes a few seconds to save its state) and removes its folder.
    public func stop() async {
        await process.terminate(grace: .seconds(60))
        try? FileManager.default.removeItem(atPath: configDirectory)
    }

    private static func control(
        _ arguments: [String], timeout: Duration = .seconds(90), environment: [String: String] = [:]
    ) async throws -> Any {
        let output = try await runToEnd(
            python, [hactl] + arguments, name: "hactl-\(arguments.first ?? "")", timeout: timeout,
            environment: environment)
        return try JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed])
    }

    /// Runs a command to its end; its standard output, or a failure with what it wrote.
    @discardableResult
    private static func runToEnd(
        _ executable: String, _ arguments: [String], name: String, timeout: Duration,
        environment: [String: String] = [:]
    ) async throws -> String {
        let process = try ManagedProcess.launch(executable, arguments: arguments, environment: environment, name: name)
        let exit: ProcessExit
        do {
            exit = try await process.waitForExit(timeout: timeout)
        } catch {
            await process.terminate()
            throw Failure(description: "\(name) did not finish in \(timeout): \(process.outputText.suffix(2000))")
        }
        guard exit == .exited(0) else {
            throw Failure(
                description:
                    "\(name) \(arguments.dropFirst().prefix(3)) ended with \(exit): \(process.outputText.suffix(3000))")
        }
        return process.lines.filter { $0.stream == .stdout }.map(\.text).joined(separator: "\n")
    }
}
