import Foundation
import Locks

/// The real Linux Bluetooth stack for tests: Debian's kernel in a qemu guest (TCG, no KVM needed) with
/// the real bluetoothd and btvirt's virtual LE controllers (`scripts/realbluez/`). A test process has up to
/// `count` guests, each serving one world at a time (`GuestLease`): a guest boots on first use (about
/// 15 s) and each world asks its guest for a fresh BlueZ (`reset`, under a second where the last world left only
/// bluetoothd's state). A guest's system bus is forwarded to a loopback port, so the bridge, the simulators and
/// bluetoothctl run on the host as they would against any BlueZ.
///
/// The guest is driven through its serial console (scripts/realbluez/guest-agent, `GuestConsole`): one
/// request a line, answered by `g2m-agent <id> …` lines, and killed with the test process at the latest.
public final class RealBlueZGuest: Sendable {
    /// The guest's system bus, for `DBUS_SYSTEM_BUS_ADDRESS`.
    public let busAddress: String
    /// Where the guest writes bluetoothd's and btvirt's logs (shared with the host over 9p).
    public let runFolder: String
    /// qemu, whose standard input and output are the guest's console.
    public let console: ManagedProcess
    /// The console's request protocol.
    private let agent: GuestConsole

    /// The guests of this test process, by number, each booted on first use.
    private static let current = Mutex<[Int: Task<RealBlueZGuest, Error>]>([:])

    /// How many guests a test process may boot: `GATT2MQTT_REAL_GUESTS` (1 to 4), two by default. Each takes
    /// 1 GiB of memory and, while its test talks to BlueZ, about a third of this machine's two cores.
    public static let count: Int = {
        let stated = ProcessInfo.processInfo.environment["GATT2MQTT_REAL_GUESTS"].flatMap { Int($0) } ?? 2
        return min(max(stated, 1), 4)
    }()

    /// Guest number `slot` of this test process, booted on first use and again if it has died.
    public static func shared(slot: Int = 0) async throws -> RealBlueZGuest {
        let task = current.withLock { tasks in
            if let running = tasks[slot] { return running }
            let booting = Task { try await boot() }
            tasks[slot] = booting
            return booting
        }
        do {
            let guest = try await task.value
            if guest.console.isRunning { return guest }
            current.withLock { if $0[slot] == task { $0[slot] = nil } }
            return try await shared(slot: slot)
        } catch {
            current.withLock { if $0[slot] == task { $0[slot] = nil } }
            throw error
        }
    }

    /// Boots a guest and waits for its agent; the kernel and initramfs are prepared on first use.
    public static func boot(timeout: Duration = .seconds(300)) async throws -> RealBlueZGuest {
        let port = try FreePort.allocate()
        // bluetoothd's and btvirt's logs: kept with the other logs under GATT2MQTT_KEEP_LOGS, else removed at exit.
        let name = "g2m-realbluez-\(UUID().uuidString.prefix(8))"
        let runFolder = try GuestConsole.makeRunFolder(name: name, parent: FileManager.default.temporaryDirectory.path)
        let (agent, _) = try await GuestConsole.boot(
            script: ProjectPaths.root + "/scripts/realbluez/boot", arguments: [runFolder, "\(port)"],
            name: "realbluez-guest",
            label: "real BlueZ guest", runFolder: runFolder, timeout: timeout)
        return RealBlueZGuest(busAddress: "tcp:host=127.0.0.1,port=\(port)", runFolder: runFolder, agent: agent)
    }

    private init(busAddress: String, runFolder: String, agent: GuestConsole) {
        self.busAddress = busAddress
        self.runFolder = runFolder
        self.agent = agent
        self.console = agent.process
    }

    /// A fresh BlueZ with `controllers` LE controllers: no device known, no link, no bond. The agent removes the last
    /// world's devices from the running bluetoothd where that is all it left, and otherwise starts bluetoothd and
    /// btvirt again; `GATT2MQTT_REAL_RESET=whole` asks for the latter every time (to tell whether a failure needs
    /// the former). Returns the controllers' addresses, hci0 first.
    public func reset(controllers: Int) async throws -> [String] {
        let whole = ProcessInfo.processInfo.environment["GATT2MQTT_REAL_RESET"] == "whole"
        // The agent may start a whole reset over twice (guest-agent, `reset`).
        let answer = try await request("reset \(controllers)\(whole ? " whole" : "")", timeout: .seconds(240))
        return answer.split(separator: " ").compactMap { $0.split(separator: "=").last.map(String.init) }
    }

    /// Kills bluetoothd (SIGKILL, a crash) and starts it again; the controllers stay.
    public func restartBluetoothd() async throws {
        _ = try await request("restart-bluetoothd", timeout: .seconds(60))
    }

    /// Runs a shell command inside the guest, for clients that need file-descriptor passing (which D-Bus
    /// over TCP cannot carry). Returns its exit status (nil when it timed out) and output lines.
    public func run(_ command: String, timeout: Duration = .seconds(60)) async throws -> (
        status: Int32?, output: [String]
    ) {
        try await agent.run(command, timeout: timeout)
    }

    /// Sends one request and returns the text of its `ok` answer; a `fail` answer throws.
    private func request(_ text: String, timeout: Duration) async throws -> String {
        try await agent.request(text, timeout: timeout)
    }

    /// The newest log the guest's agent wrote for `name` (`<name>-<generation>.log`, one a reset), if any.
    public func newestLog(named name: String) -> (path: String, text: String)? {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: runFolder)) ?? []
        let generations = files.compactMap { file -> Int? in
            guard file.hasPrefix(name + "-"), file.hasSuffix(".log") else { return nil }
            return Int(file.dropFirst(name.count + 1).dropLast(4))
        }
        guard let newest = generations.max() else { return nil }
        let path = "\(runFolder)/\(name)-\(newest).log"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (path, String(decoding: data, as: UTF8.self))
    }

    /// Powers the guest off and removes its run folder.
    public func stop() async {
        await agent.stop(wait: .seconds(10))
        try? FileManager.default.removeItem(atPath: runFolder)
    }
}
