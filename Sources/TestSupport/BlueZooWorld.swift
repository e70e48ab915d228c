import Foundation

/// The world an integration test runs in, made of real parts: a mosquitto broker, a private
/// dbus-daemon, and BlueZoo (with the project's fidelity fixes) as BlueZ, with one adapter for the
/// bridge (hci0) and one per virtual peripheral (hci1, hci2, …). Everything it starts, it stops.
public final class BlueZooWorld: Sendable {
    public let broker: MosquittoBroker
    public let bus: PrivateBus
    private let bluezProcess: Mutex<ManagedProcess>
    public let adapterAddresses: [String]

    /// The running BlueZoo.
    public var bluez: ManagedProcess { bluezProcess.withLock { $0 } }
    private let children = Mutex<[ManagedProcess]>([])

    /// The environment every BlueZ client of this world needs.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": bus.address] }

    public static func start(peripheralAdapters: Int = 1, broker brokerOptions: MosquittoBroker.Options = .init()) async throws -> BlueZooWorld {
        let broker = try await MosquittoBroker.start(options: brokerOptions)
        let bus: PrivateBus
        do { bus = try await PrivateBus.start() } catch {
            await broker.stop()
            throw error
        }
        let addresses = (0...peripheralAdapters).map { String(format: "00:11:22:33:44:%02X", 0x50 + $0) }
        do {
            let bluez = try await startBlueZoo(bus: bus, adapters: addresses)
            return BlueZooWorld(broker: broker, bus: bus, bluez: bluez, adapterAddresses: addresses)
        } catch {
            await bus.stop()
            await broker.stop()
            throw error
        }
    }

    /// Starts BlueZoo through the project's fixture; it prints a line once `org.bluez` and the adapters exist.
    static func startBlueZoo(bus: PrivateBus, adapters: [String]) async throws -> ManagedProcess {
        let process = try ManagedProcess.launch(
            ProjectPaths.python,
            arguments: ["-u", ProjectPaths.root + "/scripts/bluezoo_fixture.py", "--auto-enable", "--scan-interval", "1"]
                + adapters.flatMap { ["-a", $0] },
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], name: "bluezoo")
        try await process.waitForLine(containing: "bluezoo-fixture: ready", timeout: .seconds(20))
        return process
    }

    private init(broker: MosquittoBroker, bus: PrivateBus, bluez: ManagedProcess, adapterAddresses: [String]) {
        self.broker = broker
        self.bus = bus
        bluezProcess = Mutex(bluez)
        self.adapterAddresses = adapterAddresses
    }

    /// Starts `gatt2mqtt-sim --adapter hciN <arguments>` and waits for its `READY` line.
    public func startSimulator(_ arguments: [String], adapter: String = "hci1") async throws -> ManagedProcess {
        let process = try launch(
            ProjectPaths.binary("gatt2mqtt-sim"), ["--adapter", adapter] + arguments, name: "sim-\(adapter)", standardInput: true)
        try await process.waitForLine(timeout: .seconds(20)) { $0.hasPrefix("READY ") }
        return process
    }

    /// Starts the bridge on hci0 against this world's broker; waits until it runs.
    public func startBridge(
        gateway: String = "test", extraArguments: [String] = [], extraEnvironment: [String: String] = [:]
    ) async throws -> ManagedProcess {
        let process = try launch(
            ProjectPaths.binary("gatt2mqtt"),
            ["--broker", broker.url, "--adapter", "hci0", "--gateway", gateway, "--log-level", "debug"] + extraArguments,
            name: "gatt2mqtt", extraEnvironment: extraEnvironment)
        try await process.waitForLine(containing: "bridge running", timeout: .seconds(20))
        return process
    }

    /// Starts any other BlueZ client (bluetoothctl, a Python script) in this world.
    public func launch(
        _ executable: String, _ arguments: [String], name: String? = nil, extraEnvironment: [String: String] = [:],
        standardInput: Bool = false
    ) throws -> ManagedProcess {
        let process = try ManagedProcess.launch(
            executable, arguments: arguments, environment: environment.merging(extraEnvironment) { $1 }, name: name,
            standardInput: standardInput)
        children.withLock { $0.append(process) }
        return process
    }

    // MARK: Faults

    /// Kills BlueZ (SIGKILL, as a crash: no InterfacesRemoved) and starts it again with the same adapters.
    public func restartBlueZ() async throws {
        let old = bluez
        old.send(SIGKILL)
        _ = try await old.waitForExit()
        let new = try await Self.startBlueZoo(bus: bus, adapters: adapterAddresses)
        bluezProcess.withLock { $0 = new }
    }

    /// Removes adapter `hci<index>` through BlueZoo's manager interface, as when a dongle is unplugged.
    public func removeAdapter(_ index: Int) async throws {
        try await manager("RemoveAdapter", ["y", "\(index)"])
    }

    /// Adds adapter `hci<index>` back with its original address.
    public func addAdapter(_ index: Int) async throws {
        try await manager("AddAdapter", ["ys", "\(index)", adapterAddresses[index]])
    }

    /// Calls BlueZoo's manager with busctl (dbus-send's calls go unanswered by BlueZoo's sd-bus).
    private func manager(_ method: String, _ arguments: [String]) async throws {
        let call = try launch(
            "busctl", ["--address=\(bus.address)", "--timeout=10", "call", "org.bluez", "/org/bluezoo", "org.bluezoo.Manager1", method] + arguments,
            name: "busctl")
        let exit = try await call.waitForExit()
        guard exit == .exited(0) else {
            throw WorldFailure(description: "BlueZoo \(method) failed: \(call.outputText)")
        }
    }

    /// Stops everything, children first.
    public func stop() async {
        for child in children.withLock({ $0.reversed() }) { _ = await child.terminate(grace: .seconds(3)) }
        _ = await bluez.terminate(grace: .seconds(3))
        await bus.stop()
        await broker.stop()
    }
}

import Synchronization

/// Something in the test world did not do what it was asked.
public struct WorldFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(description: String) { self.description = description }
}
