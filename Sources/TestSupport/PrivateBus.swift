import Foundation

/// A private dbus-daemon: the "system bus" of one test. Nothing here ever touches the machine's own bus.
public final class PrivateBus: Sendable {
    /// The address to give clients as `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    public let process: ManagedProcess
    private let directory: String

    /// The policy of buses started in this task (and its child tasks) without saying otherwise: for a test whose
    /// bridge runs as another user (the container image's unprivileged `gatt2mqtt`) or under a host's policy,
    /// around `TestWorld.with`. A session bus, admitting only the runner's uid, by default.
    @TaskLocal public static var policy = BusPolicy.session

    /// Starts a bus with `policy`; a policy that admits other uids opens the bus's folder and socket to all.
    public static func start(policy: BusPolicy = PrivateBus.policy) async throws -> PrivateBus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-bus-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let address = "unix:path=\(directory)/\(policy.socketName)"
        let configuration: [String]
        do {
            configuration = try policy.configurationArguments(folder: directory, address: address)
            if policy.admitsOtherUsers {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        let process = try ManagedProcess.launch(
            "dbus-daemon",
            arguments: configuration + ["--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"],
            name: "dbus-daemon")
        // The daemon prints its address once it listens.
        try await process.waitForLine(containing: "unix:path=")
        return PrivateBus(address: address, process: process, directory: directory)
    }

    private init(address: String, process: ManagedProcess, directory: String) {
        self.address = address
        self.process = process
        self.directory = directory
    }

    public func stop() async {
        _ = await process.terminate()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension PrivateBus {
    /// Runs `body` with a fresh bus and stops the bus afterwards, also when `body` throws.
    public static func with<T: Sendable>(_ body: (PrivateBus) async throws -> T) async throws -> T {
        let bus = try await start()
        return try await withCleanUp({ await bus.stop() }) { try await body(bus) }
    }
}
