import ArgumentParser
import BlueZ
import DBus
import Foundation
import Logging

/// A simulated device as the runner drives it: BlueZ's events (connections, subscriptions), the lines of
/// its console, and, for a device that can switch itself off, the moment it does.
protocol SimulatedPeripheral: Actor, GattApplicationDelegate {
    func handle(_ event: PeripheralEvent) async
    func run(_ line: String) async
    /// Yields when the device powers itself off: the process ends then, with status 0.
    nonisolated var powerOffs: AsyncStream<Void> { get }
}

extension SimulatedPeripheral {
    /// A device that never switches itself off.
    nonisolated var powerOffs: AsyncStream<Void> { AsyncStream { _ in } }
}

/// What every simulator process is, whatever the family: a GATT application and an advertisement on the
/// system bus (`/org/gatt2mqtt/sim/<family>`), registered with BlueZ on `--adapter`; then the device is fed
/// BlueZ's events and its console's lines until the bus is lost (exit status 1) or it powers off (status 0).
struct PeripheralRunner {
    let connection: DBusConnection
    let application: GattApplication
    let advertisement: LEAdvertisement
    let registrar: PeripheralRegistrar

    init(
        global: GlobalOptions, family: String, services: [GattServiceDescription], localName: String,
        serviceUUIDs: [String]
    ) throws {
        connection = try DBusConnection.system(logger: Logger(label: "sim.dbus"))
        let root = "/org/gatt2mqtt/sim/\(family)"
        application = GattApplication(
            connection: connection, rootPath: root, services: services,
            minimumNotificationInterval: global.notificationGap,
            observer: try global.trafficObserver())
        advertisement = LEAdvertisement(
            connection: connection, path: root + "/advertisement0",
            description: LEAdvertisementDescription(localName: localName, serviceUUIDs: serviceUUIDs))
        registrar = PeripheralRegistrar(
            connection: connection, adapter: global.adapter, application: application, advertisement: advertisement,
            repeatsAdvertising: global.repeatAdvertising, logger: Logger(label: "sim.peripheral"))
    }

    /// Serves `device`: `beforeAdvertising` runs once its application answers, before BlueZ registers it
    /// (a device that needs an agent registers it there), `started` once it advertises.
    func run(
        _ device: some SimulatedPeripheral, logger: Logger, beforeAdvertising: () async -> Void = {},
        started: () async -> Void = {}
    ) async throws {
        application.setDelegate(device)
        await beforeAdvertising()
        await registrar.start()
        await started()
        // Unstructured: the standard input's reader is a thread blocked in read(2) that no cancellation
        // reaches, so a task group could not end on power-off. Whichever ends first decides; the process
        // exits with the rest still running.
        let (ends, end) = AsyncStream<Bool>.makeStream()
        let (connection, registrar) = (connection, registrar)
        let tasks = [
            Task {
                for await line in StandardInputLines.stream() {
                    // A test's barrier: echoed in order with everything written before, so once the test reads
                    // the echo it has read every earlier line (ManagedProcess.caughtUp).
                    if line.hasPrefix("SYNC ") {
                        FileHandle.standardOutput.write(Data((line + "\n").utf8))
                    } else {
                        await device.run(line)
                    }
                }
            },
            Task { for await event in registrar.events { await device.handle(event) } },
            Task {
                await connection.disconnected()
                end.yield(false)
            },
            Task { for await _ in device.powerOffs { end.yield(true) } },
        ]
        defer { for task in tasks { task.cancel() } }
        if await ends.first(where: { _ in true }) == true { return }
        logger.error("lost the D-Bus connection")
        throw ExitCode.failure
    }
}
