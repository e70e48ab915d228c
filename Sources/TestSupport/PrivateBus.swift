import Foundation

/// A private dbus-daemon: the "system bus" of one test. Nothing here ever touches the machine's own bus.
public final class PrivateBus: Sendable {
    /// The address to give clients as `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    public let process: ManagedProcess
    private let directory: String

    /// Whether buses started in this task (and its child tasks) without saying otherwise admit clients of any
    /// uid: for a test whose bridge runs as another user (the container image's unprivileged `gatt2mqtt`),
    /// around `TestWorld.with`. Off by default: a session bus admits only its own uid.
    @TaskLocal public static var admitsAnyUser = false

    /// Starts a bus of the session type: it admits only the test runner's uid, or, with `admittingAnyUser`,
    /// clients of any uid (the session bus's policy plus `<allow user="*"/>`; its folder and socket are
    /// open to all).
    public static func start(admittingAnyUser: Bool = PrivateBus.admitsAnyUser) async throws -> PrivateBus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-bus-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let address = "unix:path=\(directory)/bus"
        var configuration = ["--session"]
        if admittingAnyUser {
            let file = directory + "/bus.conf"
            try anyUserConfiguration().write(toFile: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
            configuration = ["--config-file=\(file)"]
        }
        let process = try ManagedProcess.launch(
            "dbus-daemon",
            arguments: configuration + ["--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"],
            name: "dbus-daemon")
        // The daemon prints its address once it listens.
        try await process.waitForLine(containing: "unix:path=")
        return PrivateBus(address: address, process: process, directory: directory)
    }

    /// The session bus's own configuration (what `--session` loads), and any uid let in.
    private static func anyUserConfiguration() -> String {
        let session =
            ["/usr/share/dbus-1/session.conf", "/etc/dbus-1/session.conf"].first {
                FileManager.default.fileExists(atPath: $0)
            }
            ?? "/usr/share/dbus-1/session.conf"
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <include>\(session)</include>
              <policy context="default"><allow user="*"/></policy>
            </busconfig>

            """
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
