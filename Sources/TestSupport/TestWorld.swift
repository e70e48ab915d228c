import Foundation
import Locks

/// The world an integration test runs in, made of real parts: a mosquitto broker and a BlueZ with the
/// bridge's adapters first (hci0, or hci0…hciN-1) and then one per virtual peripheral. The BlueZ is either
/// BlueZoo (with the project's fidelity fixes) on a private dbus-daemon, or the real bluetoothd in the
/// guest of `RealBlueZGuest`, reset for this world. Everything it starts, it stops.
public final class TestWorld: Sendable {
    public let broker: MosquittoBroker
    /// The system bus of this world's BlueZ.
    public let busAddress: String
    private let backend: Backend
    /// The running BlueZoo (nil in the real world); a new one after `restartBlueZ()`.
    private let bluezoo: Mutex<ManagedProcess?>
    public let adapterAddresses: [String]
    /// How many of the adapters, from hci0 on, are the bridge's.
    public let centralAdapters: Int
    private let children = Mutex<[ManagedProcess]>([])
    /// What tests attached to this world to be stopped with it (their MQTT clients), run first by `stop()`.
    private let stopActions = Mutex<[@Sendable () async -> Void]>([])
    /// Whether `stop()` ran (it releases the real guest's lease once).
    private let stopped = Mutex(false)
    /// A real world's lease: which guest, when it was given, how long the reset took and who asked (the test's
    /// function), for the line `stop` prints.
    private let lease = Mutex<(guest: Int, given: ContinuousClock.Instant, reset: Duration, caller: String)?>(nil)
    /// The gateways' state directories (`<folder>/<process name>`): a gateway restarted in this world finds what it
    /// kept, and no world sees another's. Removed by `stop()`.
    public let stateFolder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "gatt2mqtt-state-\(UUID().uuidString)"
    ).path

    /// What runs BlueZ: BlueZoo on a private bus of this world's own, or the shared real-BlueZ guest.
    private enum Backend: Sendable {
        case bluezoo(PrivateBus)
        case real(RealBlueZGuest)
    }

    /// The environment every BlueZ client of this world needs. On the real stack under emulation a gateway
    /// waits for one GATT operation as much longer as the tests wait for anything there (`BlueZWorld.patience`):
    /// with six bands on one guest, a write has reached its band after more than 4 s, and its response came back
    /// past the default 5 s (CPRBandEndToEndTests.sixBandsAtOnceSpreadOverTheAdaptersSlots failed so once).
    public var environment: [String: String] {
        var variables = ["DBUS_SYSTEM_BUS_ADDRESS": busAddress]
        if isReal { variables["GATT2MQTT_BLUEZ_OPERATION_TIMEOUT_S"] = "\(5 * BlueZWorld.patience)" }
        return variables
    }

    /// Which BlueZ this world has.
    public var kind: BlueZWorld {
        if case .real = backend { return .real }
        return .bluezoo
    }

    /// Whether this is the real bluetoothd (for the few expectations where the real stack differs, e.g.
    /// btvirt's controllers report no signal strength).
    public var isReal: Bool { kind == .real }

    /// A world of `kind` with that many adapters for gateways and for simulators. `alone`: a real world that has the
    /// machine to itself, no other guest busy beside it (`GuestLease`); for the heaviest worlds, it costs the tier the
    /// other guest's time while it runs.
    public static func start(
        _ kind: BlueZWorld = .bluezoo, centralAdapters: Int = 1, peripheralAdapters: Int = 1,
        broker brokerOptions: MosquittoBroker.Options = .init(), alone: Bool = false, caller: String = #function
    ) async throws -> TestWorld {
        let count = centralAdapters + peripheralAdapters
        let broker = try await MosquittoBroker.start(options: brokerOptions)
        do {
            switch kind {
            case .bluezoo:
                let bus = try await PrivateBus.start()
                let addresses = (0..<count).map { String(format: "00:11:22:33:44:%02X", 0x50 + $0) }
                do {
                    let bluez = try await startBlueZoo(bus: bus, adapters: addresses)
                    return TestWorld(
                        broker: broker, busAddress: bus.address, backend: .bluezoo(bus), bluezoo: bluez,
                        adapterAddresses: addresses, centralAdapters: centralAdapters)
                } catch {
                    await bus.stop()
                    throw error
                }
            case .real:
                let slot = await GuestLease.shared.acquire(alone: alone)
                let given = ContinuousClock.now
                do {
                    let guest = try await RealBlueZGuest.shared(slot: slot)
                    let resetStarted = ContinuousClock.now
                    let addresses = try await guest.reset(controllers: count)
                    let world = TestWorld(
                        broker: broker, busAddress: guest.busAddress, backend: .real(guest), bluezoo: nil,
                        adapterAddresses: addresses, centralAdapters: centralAdapters)
                    world.lease.withLock { $0 = (slot, given, ContinuousClock.now - resetStarted, caller) }
                    return world
                } catch {
                    await GuestLease.shared.release(slot)
                    throw error
                }
            }
        } catch {
            await broker.stop()
            throw error
        }
    }

    /// Starts BlueZoo through the project's fixture; it prints a line once `org.bluez` and the adapters exist.
    static func startBlueZoo(bus: PrivateBus, adapters: [String]) async throws -> ManagedProcess {
        let process = try ManagedProcess.launch(
            ProjectPaths.python,
            arguments: [
                "-u", ProjectPaths.root + "/scripts/bluezoo_fixture.py", "--auto-enable", "--scan-interval", "1",
            ]
                + adapters.flatMap { ["-a", $0] },
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], name: "bluezoo")
        try await process.waitForLine(containing: "bluezoo-fixture: ready", timeout: .seconds(20))
        return process
    }

    private init(
        broker: MosquittoBroker, busAddress: String, backend: Backend, bluezoo: ManagedProcess?,
        adapterAddresses: [String], centralAdapters: Int
    ) {
        self.centralAdapters = centralAdapters
        self.broker = broker
        self.busAddress = busAddress
        self.backend = backend
        self.bluezoo = Mutex(bluezoo)
        self.adapterAddresses = adapterAddresses
    }

    /// The adapter of the `number`th virtual peripheral (from 1), after the bridge's.
    public func peripheralAdapter(_ number: Int = 1) -> String { "hci\(centralAdapters + number - 1)" }

    /// The bridge's adapters.
    public var bridgeAdapters: [String] { (0..<centralAdapters).map { "hci\($0)" } }

    /// Starts `gatt2mqtt-sim --adapter hciN <arguments>` (the first peripheral adapter unless named) and
    /// waits for its `READY` line.
    public func startSimulator(_ arguments: [String], adapter: String? = nil) async throws -> ManagedProcess {
        let adapter = adapter ?? peripheralAdapter()
        let process = try launch(
            ProjectPaths.binary("gatt2mqtt-sim"), ["--adapter", adapter] + Self.simulatorOptions(backend) + arguments,
            name: "sim-\(adapter)", standardInput: true)
        try await process.waitForLine(timeout: .seconds(20)) { $0.hasPrefix("READY ") }
        return process
    }

    /// btvirt's controllers report an advertiser only when scanning or advertising is switched on, and the
    /// kernel drops a report that comes before its discovery is under way: the simulators repeat their
    /// advertising there, as a radio would (`PeripheralRegistrar`).
    private static func simulatorOptions(_ backend: Backend) -> [String] {
        switch backend {
        case .bluezoo: []
        case .real: ["--repeat-advertising"]
        }
    }

    /// Starts the bridge on its adapters (all of the bridge's unless named) against this world's broker
    /// (or another); waits until it runs.
    public func startBridge(
        gateway: String = "test", adapters: [String]? = nil, broker brokerURL: String? = nil,
        extraArguments: [String] = [],
        extraEnvironment: [String: String] = [:]
    ) async throws -> ManagedProcess {
        let process = try launch(
            ProjectPaths.binary("gatt2mqtt"),
            ["--broker", brokerURL ?? broker.url] + (adapters ?? bridgeAdapters).flatMap { ["--adapter", $0] }
                + ["--gateway", gateway, "--log-level", "debug"] + Self.withAutoConnect(extraArguments),
            name: gateway == "test" ? "gatt2mqtt" : "gatt2mqtt-\(gateway)", extraEnvironment: extraEnvironment)
        try await process.waitForLine(containing: "bridge running", timeout: .seconds(20))
        return process
    }

    /// The arguments a test's gateway gets unless the test chooses: every device of a known family connects
    /// (`--auto-connect all`), as the tests of one family's bridging need; adoption has tests of its own.
    static func withAutoConnect(_ arguments: [String]) -> [String] {
        arguments.contains(where: { ["--auto-connect", "--allow"].contains($0) })
            ? arguments : ["--auto-connect", "all"] + arguments
    }

    /// Starts any other BlueZ client (bluetoothctl, a Python script) in this world. A gateway among them keeps its
    /// state in this world's `stateFolder`, under the process's name, never in the machine's /var/lib/gatt2mqtt.
    public func launch(
        _ executable: String, _ arguments: [String], name: String? = nil, extraEnvironment: [String: String] = [:],
        standardInput: Bool = false
    ) throws -> ManagedProcess {
        let logFile = Self.keptLogs.map { folder in
            Self.unusedPath(
                "\(folder)/\(kind)-\(ObjectIdentifier(self).hashValue & 0xffff)-\(name ?? URL(fileURLWithPath: executable).lastPathComponent)"
            )
        }
        let stateDirectory = [
            "GATT2MQTT_STATE_DIRECTORY": "\(stateFolder)/\(name ?? URL(fileURLWithPath: executable).lastPathComponent)"
        ]
        let process = try ManagedProcess.launch(
            executable, arguments: arguments,
            environment: environment.merging(stateDirectory) { $1 }.merging(extraEnvironment) { $1 }, name: name,
            logFile: logFile, standardInput: standardInput)
        children.withLock { $0.append(process) }
        return process
    }

    /// `<base>.log`, or `<base>-2.log`, `-3`… when a process of the same name ran before (a simulator started again
    /// after its first was killed): each keeps its own log.
    private static func unusedPath(_ base: String) -> String {
        var path = base + ".log"
        var number = 2
        while FileManager.default.fileExists(atPath: path) {
            path = "\(base)-\(number).log"
            number += 1
        }
        return path
    }

    /// With `GATT2MQTT_KEEP_LOGS=FOLDER`, every child's output is also written there, one file a child, for
    /// reading after a failed run (the real world's bluetoothd logs are in `RealBlueZGuest.runFolder`).
    static let keptLogs: String? = {
        guard let folder = ProcessInfo.processInfo.environment["GATT2MQTT_KEEP_LOGS"], !folder.isEmpty else {
            return nil
        }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    /// Runs a BlueZ client inside the real world's guest, on the bus's unix socket: for clients that need
    /// file-descriptor passing (AcquireNotify, AcquireWrite) or authenticate only with EXTERNAL, neither of
    /// which D-Bus over TCP offers (bleak does both). Returns its exit status (nil on a time-out) and
    /// its output lines, standard error among them.
    public func runInGuest(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> (
        status: Int32?, output: [String]
    ) {
        guard case .real(let guest) = backend else {
            throw WorldFailure(description: "runInGuest needs the real world; BlueZoo's clients run on the host")
        }
        let quoted = arguments.map(GuestConsole.shellQuoted).joined(separator: " ")
        return try await guest.run(
            "cd \(GuestConsole.shellQuoted(ProjectPaths.root)) && \(quoted) 2>&1", timeout: timeout)
    }

    // MARK: Faults

    /// Kills BlueZ (SIGKILL, as a crash: no InterfacesRemoved) and starts it again with the same adapters.
    public func restartBlueZ() async throws {
        switch backend {
        case .bluezoo(let bus):
            if let old = bluezoo.withLock({ $0 }) {
                old.send(SIGKILL)
                _ = try await old.waitForExit()
            }
            let new = try await Self.startBlueZoo(bus: bus, adapters: adapterAddresses)
            bluezoo.withLock { $0 = new }
        case .real(let guest):
            try await guest.restartBluetoothd()
        }
    }

    /// Drops the link between adapter `hci<adapter>` and the device at `address` (`Device1.Disconnect`, as
    /// dbus-send sends it), as the link of a gateway whose host died would drop: bluetoothd keeps a link
    /// whose client was killed, in both worlds.
    /// With `unlessAbsent`, a device the adapter has no link with (no object, or not connected) is no failure.
    public func dropLink(adapter: Int, address: String, unlessAbsent: Bool = false) async throws {
        let path = "/org/bluez/hci\(adapter)/dev_" + address.replacingOccurrences(of: ":", with: "_")
        let process = try launch(
            "/usr/bin/dbus-send",
            ["--bus=\(busAddress)", "--print-reply", "--dest=org.bluez", path, "org.bluez.Device1.Disconnect"],
            name: "dbus-send")
        guard try await process.waitForExit() == .exited(0) else {
            let absent = [
                "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.UnknownMethod",
                "org.bluez.Error.NotConnected",
            ]
            if unlessAbsent, absent.contains(where: process.outputText.contains) { return }
            throw WorldFailure(description: "Disconnect of \(path) failed: \(process.outputText)")
        }
    }

    /// Kills a simulator as a device dies (SIGKILL), and ends its links from its adapter's side: a dead device's radio
    /// goes silent and the central's supervision timeout ends the link, but bluetoothd keeps the link of a client that
    /// was killed (in both worlds). Left up, the real bluetoothd took the simulator's services away over the live link,
    /// and a new simulator registering its own while the gateway reconnected left the gateway's side a partial copy of
    /// them, which it kept from then on (its Database Hash matched): the belt lacked a characteristic for good.
    public func kill(_ simulator: ManagedProcess) async throws {
        simulator.send(SIGKILL)
        _ = try await simulator.waitForExit()
        // Its adapter is in its name (`startSimulator`'s `sim-hciN`).
        guard simulator.name.hasPrefix("sim-hci"), let peripheral = Int(simulator.name.dropFirst("sim-hci".count))
        else {
            throw WorldFailure(description: "\(simulator.name) is no simulator of this world")
        }
        for central in 0..<centralAdapters {
            try await dropLink(adapter: peripheral, address: adapterAddresses[central], unlessAbsent: true)
        }
    }

    /// Removes adapter `hci<index>` through BlueZoo's manager interface, as when a dongle is unplugged
    /// (BlueZoo only: btvirt's controllers cannot be unplugged one by one).
    public func removeAdapter(_ index: Int) async throws {
        try await manager("RemoveAdapter", ["y", "\(index)"])
    }

    /// Adds adapter `hci<index>` back with its original address (BlueZoo only).
    public func addAdapter(_ index: Int) async throws {
        try await manager("AddAdapter", ["ys", "\(index)", adapterAddresses[index]])
    }

    /// Sets what BlueZoo's adapter `hci<adapter>` hears of the device whose address is the adapter
    /// `hci<device>`'s (a virtual peripheral's): a mean RSSI and its noise, drawn anew each scan round
    /// (BlueZoo only: btvirt's controllers report no signal).
    public func setSignal(adapter: Int, device: Int, mean: Int16, sigma: UInt8 = 0) async throws {
        try await callFixture(
            "/org/gatt2mqtt/fixture", "org.gatt2mqtt.Fixture1", "SetSignal",
            ["ssny", adapterAddresses[adapter], adapterAddresses[device], "\(mean)", "\(sigma)"])
    }

    /// Makes BlueZoo's adapter `hci<adapter>` stop hearing the device of adapter `hci<device>` (BlueZoo only).
    public func setOutOfRange(adapter: Int, device: Int) async throws {
        try await callFixture(
            "/org/gatt2mqtt/fixture", "org.gatt2mqtt.Fixture1", "SetOutOfRange",
            ["ss", adapterAddresses[adapter], adapterAddresses[device]])
    }

    private func manager(_ method: String, _ arguments: [String]) async throws {
        try await callFixture("/org/bluezoo", "org.bluezoo.Manager1", method, arguments)
    }

    /// Calls BlueZoo (or the project's fixture around it) with busctl (dbus-send's calls go unanswered by
    /// BlueZoo's sd-bus).
    private func callFixture(_ object: String, _ interface: String, _ method: String, _ arguments: [String])
        async throws
    {
        guard case .bluezoo = backend else {
            throw WorldFailure(description: "\(method) needs BlueZoo; the real world has no such call")
        }
        let call = try launch(
            "busctl",
            ["--address=\(busAddress)", "--timeout=10", "--", "call", "org.bluez", object, interface, method]
                + arguments,
            name: "busctl")
        let exit = try await call.waitForExit()
        guard exit == .exited(0) else {
            throw WorldFailure(description: "BlueZoo \(method) failed: \(call.outputText)")
        }
    }

    /// Has `action` run when this world stops, also after a failed test (e.g. a client's `stop`).
    public func atStop(_ action: @escaping @Sendable () async -> Void) {
        stopActions.withLock { $0.append(action) }
    }

    /// Stops everything, what tests attached first, then the children. The real guest stays up for the next
    /// world, which resets it.
    public func stop() async {
        for action in stopActions.withLock({ $0.reversed() }) { await action() }
        for child in children.withLock({ $0.reversed() }) { _ = await child.terminate(grace: .seconds(3)) }
        switch backend {
        case .bluezoo(let bus):
            _ = await bluezoo.withLock({ $0 })?.terminate(grace: .seconds(3))
            await bus.stop()
        case .real:
            let first = stopped.withLock { stopped in
                defer { stopped = true }
                return !stopped
            }
            if first, let lease = lease.withLock({ $0 }) {
                // The tier runs one world a guest at a time: what each test holds its guest for, and how much of
                // it the reset was, is where the tier's minutes go. scripts/test sums these lines.
                let held = Self.seconds(ContinuousClock.now - lease.given)
                print(
                    "real guest \(lease.guest): held \(held) s, reset \(Self.seconds(lease.reset)) s: \(lease.caller)")
                await GuestLease.shared.release(lease.guest)
            }
        }
        await broker.stop()
        try? FileManager.default.removeItem(atPath: stateFolder)
    }
}

extension TestWorld {
    /// A duration in seconds with one decimal, for the lines the tests print.
    static func seconds(_ duration: Duration) -> String {
        let components = duration.components
        let tenths = (Double(components.seconds) + Double(components.attoseconds) / 1e18) * 10
        return String(Double(tenths.rounded()) / 10)
    }
}

/// Something in the test world did not do what it was asked.
public struct WorldFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(description: String) { self.description = description }
}

extension TestWorld {
    /// Runs `body` in a fresh world and stops it afterwards, also when `body` throws.
    public static func with<T: Sendable>(
        _ kind: BlueZWorld = .bluezoo, centralAdapters: Int = 1, peripheralAdapters: Int = 1,
        broker brokerOptions: MosquittoBroker.Options = .init(), alone: Bool = false, caller: String = #function,
        _ body: (TestWorld) async throws -> T
    ) async throws -> T {
        let world = try await start(
            kind, centralAdapters: centralAdapters, peripheralAdapters: peripheralAdapters, broker: brokerOptions,
            alone: alone, caller: caller)
        return try await withCleanUp({ await world.stop() }) {
            do {
                return try await body(world)
            } catch {
                throw ReportedFailure(error, report: world.failureReport(error))
            }
        }
    }

    /// The lines bluetoothd's debug log has for every advertisement it hears.
    static let discoveryNoise = [
        "device_found_callback()", "device_set_legacy()", "device_set_rssi_with_delta()", "device_set_flags()",
        "event 0x0012",
    ]

    /// What a failed test's world looked like: the tail of every child's output (the gateways' first, at debug
    /// level), BlueZoo's, and, in the real world, bluetoothd's log. CI keeps only the output, so a failure that
    /// happens once in many runs must carry its own evidence.
    func failureReport(_ error: any Error, lines: Int = 60) -> String {
        var report = "=== the world of a failed test (\(kind)): \(error)\n"
        for child in Self.gatewaysFirst(children.withLock { $0 }, named: \.name) {
            report += "--- \(child.name), its last \(lines) lines ---\n\(child.outputTail(lines))\n"
        }
        if let zoo = bluezoo.withLock({ $0 }) {
            // BlueZoo says when it adds and removes an application and what it refused: the other half of a
            // peripheral's story (a restarted simulator's registration refused while the last one's was kept).
            report += "--- bluezoo, its last \(2 * lines) lines ---\n\(zoo.outputTail(2 * lines))\n"
        }
        if case .real(let guest) = backend, let log = guest.newestLog(named: "bluetoothd") {
            // Discovery's reports (one for every advertisement on every adapter) would fill the tail: CI9's
            // six-band failure left 60 lines of them and nothing of the connections that failed.
            let kept = log.text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
                !Self.discoveryNoise.contains { line.contains($0) }
            }
            report += "--- \(log.path), its last \(2 * lines) lines but discovery's reports ---\n"
            report += kept.suffix(2 * lines).joined(separator: "\n") + "\n"
        }
        return report + "=== end of the world's report\n"
    }

    /// The gateways' outputs first, then the others' in the order they started: what CI shows of a failure is the
    /// lines that follow it, and the gateway's log says most (a refused command, a link it took for lost).
    public static func gatewaysFirst<Child>(_ children: [Child], named name: (Child) -> String) -> [Child] {
        // `startBridge` names them `gatt2mqtt`, or `gatt2mqtt-<gateway>` beside another.
        func isGateway(_ child: Child) -> Bool { name(child).hasPrefix("gatt2mqtt") }
        return children.filter(isGateway) + children.filter { !isGateway($0) }
    }
}

/// A failed test's error with its world's report, which Swift Testing prints right after the failure's line: on CI,
/// whose record of a run shows the lines around a failure and its end, a report written before that line (as it
/// was) was cut off but for its last line.
public struct ReportedFailure: Error, CustomStringConvertible {
    public let underlying: any Error
    public let report: String

    public init(_ underlying: any Error, report: String) {
        self.underlying = underlying
        self.report = report
    }

    /// The error's own words first (the one line scripts/test lists under "what failed"), then the report.
    public var description: String { "\(underlying)\n\(report)" }
}
