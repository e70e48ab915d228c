import Foundation
import Synchronization

/// The real Linux Bluetooth stack for tests: Debian's kernel in a qemu guest (TCG, no KVM needed) with
/// the real bluetoothd and btvirt's virtual LE controllers (`scripts/realbluez/`). One guest serves a
/// whole test process: it boots on first use (about 15 s) and each test asks it for a fresh BlueZ
/// (`reset`, about 4 s). The guest's system bus is forwarded to a loopback port, so the bridge,
/// the simulators and bluetoothctl run on the host as they would against any BlueZ.
///
/// The guest is driven through its serial console (scripts/realbluez/guest-agent): one request a
/// line, answered by `g2m-agent <id> …` lines, and killed with the test process at the latest.
public final class RealBlueZGuest: Sendable {
    /// The guest's system bus, for `DBUS_SYSTEM_BUS_ADDRESS`.
    public let busAddress: String
    /// Where the guest writes bluetoothd's and btvirt's logs (shared with the host over 9p).
    public let runFolder: String
    /// qemu, whose standard input and output are the guest's console.
    public let console: ManagedProcess
    private let nextRequest = Mutex(1)

    private static let current = Mutex<Task<RealBlueZGuest, Error>?>(nil)

    /// The guest of this test process, booted on first use and again if it has died.
    public static func shared() async throws -> RealBlueZGuest {
        let task = current.withLock { task in
            if let running = task { return running }
            let booting = Task { try await boot() }
            task = booting
            return booting
        }
        do {
            let guest = try await task.value
            if guest.console.isRunning { return guest }
            current.withLock { if $0 == task { $0 = nil } }
            return try await shared()
        } catch {
            current.withLock { if $0 == task { $0 = nil } }
            throw error
        }
    }

    /// Boots a guest and waits for its agent; the kernel and initramfs are prepared on first use.
    public static func boot(timeout: Duration = .seconds(300)) async throws -> RealBlueZGuest {
        let port = try FreePort.allocate()
        // bluetoothd's and btvirt's logs: kept with the other logs under GATT2MQTT_KEEP_LOGS, else removed at exit.
        let name = "g2m-realbluez-\(UUID().uuidString.prefix(8))"
        let runFolder = TestWorld.keptLogs.map { "\($0)/\(name)" } ?? FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: runFolder, withIntermediateDirectories: true)
        if TestWorld.keptLogs == nil { FoldersRemovedAtExit.add(runFolder) }
        let console = try ManagedProcess.launch(
            ProjectPaths.root + "/scripts/realbluez/boot", arguments: [runFolder, "\(port)"], name: "realbluez-guest",
            standardInput: true)
        do {
            try await console.waitForLine(timeout: timeout) { $0.hasPrefix("g2m-agent 0 ready") }
        } catch {
            _ = await console.terminate(grace: .seconds(1))
            throw error
        }
        return RealBlueZGuest(busAddress: "tcp:host=127.0.0.1,port=\(port)", runFolder: runFolder, console: console)
    }

    private init(busAddress: String, runFolder: String, console: ManagedProcess) {
        self.busAddress = busAddress
        self.runFolder = runFolder
        self.console = console
    }

    /// A fresh BlueZ: bluetoothd and btvirt restarted with `controllers` LE controllers and no bonds.
    /// Returns the controllers' addresses, hci0 first.
    public func reset(controllers: Int) async throws -> [String] {
        // The agent may start a reset over twice (guest-agent, `reset`).
        let answer = try await request("reset \(controllers)", timeout: .seconds(240))
        return answer.split(separator: " ").compactMap { $0.split(separator: "=").last.map(String.init) }
    }

    /// Kills bluetoothd (SIGKILL, a crash) and starts it again; the controllers stay.
    public func restartBluetoothd() async throws {
        _ = try await request("restart-bluetoothd", timeout: .seconds(60))
    }

    /// Runs a shell command inside the guest, for clients that need file-descriptor passing (which D-Bus
    /// over TCP cannot carry). Returns its exit status (nil when it timed out) and output lines.
    public func run(_ command: String, timeout: Duration = .seconds(60)) async throws -> (status: Int32?, output: [String]) {
        let id = newRequestID()
        let start = console.lineCount
        try console.send(line: "\(id) run \(timeout.components.seconds) \(command)")
        let prefix = "g2m-agent \(id) "
        let end = try await console.waitForLine(after: start, timeout: timeout + .seconds(10)) { $0.hasPrefix(prefix + "exit ") }
        let output = console.lines.dropFirst(start).map(\.text).filter { $0.hasPrefix(prefix + "out ") }
            .map { String($0.dropFirst(prefix.count + 4)) }
        return (Int32(end.dropFirst(prefix.count + 5)), output)
    }

    /// Sends one request and returns the text of its `ok` answer; a `fail` answer throws.
    private func request(_ text: String, timeout: Duration) async throws -> String {
        let id = newRequestID()
        let start = console.lineCount
        try console.send(line: "\(id) \(text)")
        let prefix = "g2m-agent \(id) "
        let answer = try await console.waitForLine(after: start, timeout: timeout) { $0.hasPrefix(prefix) }
        let rest = answer.dropFirst(prefix.count)
        guard rest.hasPrefix("ok") else {
            throw WorldFailure(description: "real BlueZ guest: '\(text)' failed: \(rest) (logs in \(runFolder))")
        }
        return String(rest.dropFirst(2)).trimmingCharacters(in: .whitespaces)
    }

    private func newRequestID() -> Int {
        nextRequest.withLock { id in
            defer { id += 1 }
            return id
        }
    }

    /// Powers the guest off and removes its run folder.
    public func stop() async {
        try? console.send(line: "0 stop")
        _ = try? await console.waitForExit(timeout: .seconds(10))
        _ = await console.terminate(grace: .seconds(2))
        try? FileManager.default.removeItem(atPath: runFolder)
    }
}

/// Folders to remove when the test process exits (the guest outlives every test that uses it).
private enum FoldersRemovedAtExit {
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
