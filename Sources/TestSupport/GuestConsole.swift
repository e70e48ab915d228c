import Foundation
import Locks

/// The serial-console protocol of the project's qemu guests (`scripts/realbluez/guest-agent`,
/// `scripts/installed/agent`): one request a line on qemu's standard input, `<id> <verb> [arguments]`,
/// answered by `g2m-agent <id> ok|fail|out|exit …` lines on its standard output; the agent says
/// `g2m-agent 0 ready …` once it is up and ends the guest on `0 stop`. Shared by `RealBlueZGuest` and
/// `InstalledGuest`.
final class GuestConsole: Sendable {
    /// qemu, whose standard input and output are the guest's console.
    let process: ManagedProcess
    /// What the guest is called in errors, e.g. "real BlueZ guest".
    let label: String
    /// Where the guest's logs are, named in errors.
    let runFolder: String
    private let nextRequest = Mutex(1)

    private init(process: ManagedProcess, label: String, runFolder: String) {
        self.process = process
        self.label = label
        self.runFolder = runFolder
    }

    /// Launches a guest's boot script (qemu in the foreground, its console on the script's standard input
    /// and output) and waits for the agent's ready line, which it returns with the console; kills the
    /// guest when that line does not come in time. `logFile` receives a copy of the console.
    static func boot(
        script: String, arguments: [String], name: String, label: String, runFolder: String, logFile: String? = nil,
        timeout: Duration
    ) async throws -> (console: GuestConsole, ready: String) {
        let process = try ManagedProcess.launch(
            script, arguments: arguments, name: name, logFile: logFile, standardInput: true)
        do {
            let ready = try await process.waitForLine(timeout: timeout) { $0.hasPrefix("g2m-agent 0 ready") }
            return (GuestConsole(process: process, label: label, runFolder: runFolder), ready)
        } catch {
            _ = await process.terminate(grace: .seconds(1))
            throw error
        }
    }

    /// A new folder for a guest's run (logs, files handed over): under `GATT2MQTT_KEEP_LOGS` when it is set,
    /// else in `parent`, and then removed when the test process exits (`stop()` may remove it earlier).
    static func makeRunFolder(name: String, parent: String) throws -> String {
        let folder =
            TestWorld.keptLogs.map { "\($0)/\(name)" } ?? URL(fileURLWithPath: parent).appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if TestWorld.keptLogs == nil { FoldersRemovedAtExit.add(folder) }
        return folder
    }

    /// Runs a shell command in the guest (the agent's `run`): its exit status (nil when it timed out) and
    /// its output lines.
    func run(_ command: String, timeout: Duration) async throws -> (status: Int32?, output: [String]) {
        let id = newRequestID()
        let start = process.lineCount
        try process.send(line: "\(id) run \(timeout.components.seconds) \(command)")
        let prefix = "g2m-agent \(id) "
        let end = try await process.waitForLine(after: start, timeout: timeout + .seconds(10)) {
            $0.hasPrefix(prefix + "exit ")
        }
        let output = process.lines.dropFirst(start).map(\.text).filter { $0.hasPrefix(prefix + "out ") }
            .map { String($0.dropFirst(prefix.count + 4)) }
        return (Int32(end.dropFirst(prefix.count + 5)), output)
    }

    /// Sends one request and returns the text of its `ok` answer; a `fail` answer throws.
    func request(_ text: String, timeout: Duration) async throws -> String {
        let id = newRequestID()
        let start = process.lineCount
        try process.send(line: "\(id) \(text)")
        let prefix = "g2m-agent \(id) "
        let answer = try await process.waitForLine(after: start, timeout: timeout) { $0.hasPrefix(prefix) }
        let rest = answer.dropFirst(prefix.count)
        guard rest.hasPrefix("ok") else {
            throw WorldFailure(description: "\(label): '\(text)' failed: \(rest) (logs in \(runFolder))")
        }
        return String(rest.dropFirst(2)).trimmingCharacters(in: .whitespaces)
    }

    /// `text` as one word for the guest's shell.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func newRequestID() -> Int {
        nextRequest.withLock { id in
            defer { id += 1 }
            return id
        }
    }

    /// Asks the agent to power the guest off, waits up to `wait` for qemu to end, and then ends it.
    func stop(wait: Duration) async {
        try? process.send(line: "0 stop")
        _ = try? await process.waitForExit(timeout: wait)
        _ = await process.terminate(grace: .seconds(2))
    }
}

/// Folders to remove when the test process exits (a guest may outlive every test that uses it).
enum FoldersRemovedAtExit {
    private static let folders: Mutex<[String]> = {
        atexit {
            for folder in FoldersRemovedAtExit.drain() { try? FileManager.default.removeItem(atPath: folder) }
        }
        return Mutex([])
    }()

    static func add(_ folder: String) { folders.withLock { $0.append(folder) } }
    static func drain() -> [String] {
        folders.withLock { folders in
            defer { folders = [] }
            return folders
        }
    }
}
