import Foundation

/// A private dbus-daemon: the "system bus" of one test. Nothing here ever touches the machine's own bus.
public final class PrivateBus: Sendable {
    /// The address to give clients as `DBUS_SYSTEM_BUS_ADDRESS`.
    public let address: String
    public let process: ManagedProcess
    private let directory: String

    public static func start() async throws -> PrivateBus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("g2m-bus-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let address = "unix:path=\(directory)/bus"
        let process = try ManagedProcess.launch(
            "dbus-daemon", arguments: ["--session", "--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"],
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
        do {
            let result = try await body(bus)
            await bus.stop()
            return result
        } catch {
            await bus.stop()
            throw error
        }
    }
}
