import BlueZ
import Foundation
import Locks
import TestSupport

/// A relay that is a process of its own, publishing a family's stream on `<prefix>/<id>/<leaf>` to the
/// broker and, for the Activ5, taking `<prefix>/<id>/cmd/sample_period`: gatt2mqtt itself, the Python peer
/// (scripts/bench_peer.py), or the floor relay (`gatt2mqtt-bench floor-relay`).
final class ProcessRelay: StreamRelay {
    enum Program: Sendable {
        case gatt2mqtt
        case pythonPeer
        case floorRelay
    }

    /// When gatt2mqtt started, when it first published, and when every device was ready.
    struct Startup: Codable, Sendable {
        var firstPublishMilliseconds: Double
        var devicesReadyMilliseconds: Double
    }

    let program: Program
    let family: BenchFamily
    private let world: TestWorld
    private let watcher: BrokerWatcher
    private let process = Mutex<ManagedProcess?>(nil)
    private let startupFigures = Mutex<Startup?>(nil)

    /// Whether notifications are acquired (AcquireNotify) where BlueZ offers it, or StartNotify only.
    private let acquireNotify: Bool

    /// Runs the process under callgrind, counting its instructions in the window (CPU time and latency
    /// then mean nothing: it runs many times slower).
    private let callgrind: Callgrind?

    init(
        _ program: Program, family: BenchFamily = .activ5, world: TestWorld, watcher: BrokerWatcher,
        acquireNotify: Bool,
        callgrind: Callgrind? = nil
    ) {
        self.program = program
        self.family = family
        self.world = world
        self.watcher = watcher
        self.acquireNotify = acquireNotify
        self.callgrind = callgrind
    }

    var name: String {
        switch program {
        case .gatt2mqtt: "gatt2mqtt"
        case .pythonPeer: "Python relay (bleak + paho-mqtt)"
        case .floorRelay: "floor relay"
        }
    }

    /// Its topics' first level, and the name of its callgrind dumps.
    private var prefix: String {
        switch program {
        case .gatt2mqtt: family.rawValue
        case .pythonPeer: "relay"
        case .floorRelay: FloorRelayCommand.prefix
        }
    }

    var processID: Int32? { process.withLock { $0?.processIdentifier } }

    /// The process to start: `executable arguments` as they are, or under callgrind.
    private func launch(_ executable: String, _ arguments: [String], name: String) throws -> ManagedProcess {
        guard let callgrind else { return try world.launch(executable, arguments, name: name) }
        let wrapped = callgrind.wrap(executable, arguments, name: prefix)
        return try world.launch(wrapped.executable, wrapped.arguments, name: name)
    }

    func windowOpened() throws {
        guard let callgrind, let processID else { return }
        try callgrind.startCounting(processID)
    }

    func windowClosed() throws -> Callgrind.Count? {
        guard let callgrind, let processID else { return nil }
        // gatt2mqtt's notification path: an acquired socket's packets read, decoded and published.
        let path = program == .gatt2mqtt ? "AcquiredNotifySocketsC5drain" : nil
        return try callgrind.stopCounting(processID, name: prefix, function: path)
    }

    var startup: Startup? { startupFigures.withLock { $0 } }

    func start(_ devices: [BenchDevice], periodMilliseconds: Int16) async throws {
        switch program {
        case .gatt2mqtt: try await startBridge(devices, periodMilliseconds: periodMilliseconds)
        case .pythonPeer: try await startPeer(devices, periodMilliseconds: periodMilliseconds)
        case .floorRelay: try await startFloorRelay(devices, periodMilliseconds: periodMilliseconds)
        }
    }

    private func startBridge(_ devices: [BenchDevice], periodMilliseconds: Int16) async throws {
        let launched = MonotonicClock.nanoseconds()
        var arguments = ["--broker", world.broker.url, "--gateway", "bench", "--log-level", "info"]
        arguments += world.bridgeAdapters.flatMap { ["--adapter", $0] }
        // btvirt's controllers hold one working link each (README, "The real-BlueZ world"); BlueZoo's one
        // adapter holds every device of the row, beyond the default 5 slots of a real controller.
        arguments += ["--adapter-slots", world.isReal ? "1" : "\(max(devices.count, 5))"]
        arguments += devices.flatMap { ["--allow", $0.address] }
        if !acquireNotify { arguments.append("--start-notify") }
        let binary = ProjectPaths.binary("gatt2mqtt")
        let bridge = try launch(try callgrind?.withoutDebugInformation(binary) ?? binary, arguments, name: "gatt2mqtt")
        process.withLock { $0 = bridge }
        let watcher = self.watcher
        let online = await poll(timeout: .seconds(20)) {
            watcher.messages(on: "gatt2mqtt/bench/status", after: launched).contains { $0.payload == "online" }
        }
        guard online, let first = watcher.messages(on: "gatt2mqtt/bench/status", after: launched).first else {
            throw BenchFailure("gatt2mqtt did not come online:\n\(bridge.outputText.suffix(3000))")
        }
        // A device is ready when its family's ready leaf says so (an Activ5's `state`; the others' `connection`:
        // their streams start with the connection).
        let (family, stream) = (family, family.stream)
        let stated = { (device: BenchDevice) in
            watcher.messages(on: "\(family.rawValue)/\(device.id)/\(stream.readyLeaf)", after: launched).first {
                stream.readyPayload.map($0.payload.elementsEqual) ?? !$0.payload.isEmpty
            }
        }
        let ready = await poll(timeout: .seconds(30 + devices.count)) { devices.allSatisfy { stated($0) != nil } }
        guard ready else {
            throw BenchFailure("not every \(family.rawValue) device connected:\n\(bridge.outputText.suffix(3000))")
        }
        let lastReady = devices.compactMap { stated($0)?.nanoseconds }.max() ?? launched
        startupFigures.withLock {
            $0 = Startup(
                firstPublishMilliseconds: Double(first.nanoseconds - launched) / 1e6,
                devicesReadyMilliseconds: Double(lastReady - launched) / 1e6)
        }
        for device in devices {
            for command in stream.startCommands(periodMilliseconds) {
                try watcher.publish("\(family.rawValue)/\(device.id)/cmd/\(command.command)", command.payload)
            }
        }
    }

    private func startPeer(_ devices: [BenchDevice], periodMilliseconds: Int16) async throws {
        let peer = try launch(
            ProjectPaths.python,
            [
                "-u", ProjectPaths.root + "/scripts/bench_peer.py", "--port", "\(world.broker.port)", "--family",
                family.rawValue,
            ]
                + (family.periodUUID != nil ? ["--period-ms", "\(periodMilliseconds)"] : [])
                + (acquireNotify ? ["--acquire-notify"] : [])
                + devices.map(\.address),
            name: "relay-peer")
        process.withLock { $0 = peer }
        _ = try await peer.waitForLine(containing: "relay: streaming", timeout: .seconds(60 + 2 * devices.count))
    }

    private func startFloorRelay(_ devices: [BenchDevice], periodMilliseconds: Int16) async throws {
        let relay = try launch(
            ProjectPaths.binary("gatt2mqtt-bench"),
            [
                "floor-relay", "--bus", world.busAddress, "--port", "\(world.broker.port)", "--family", family.rawValue,
                "--period-ms", "\(periodMilliseconds)",
            ] + (acquireNotify ? ["--acquire-notify"] : [])
                + devices.flatMap { ["--device", "\($0.address)@\($0.central)"] },
            name: "floor-relay")
        process.withLock { $0 = relay }
        _ = try await relay.waitForLine(
            containing: FloorRelayCommand.readyLine, timeout: .seconds(60 + 2 * devices.count))
    }

    func receptions(of device: BenchDevice) -> [Reception] {
        watcher.receptions("\(prefix)/\(device.id)")
    }

    func command(_ device: BenchDevice, periodMilliseconds: Int16) async throws -> UInt64 {
        let reply = "\(prefix)/\(device.id)/reply"
        let sent = MonotonicClock.nanoseconds()
        try watcher.publish("\(prefix)/\(device.id)/cmd/sample_period", "{\"period_ms\":\(periodMilliseconds)}")
        guard await watcher.waitForMessage(on: reply, after: sent, timeout: .seconds(10)) else {
            throw BenchFailure("\(name): no reply from \(device.id)")
        }
        return sent
    }

    func stopStreams(_ devices: [BenchDevice]) async throws {
        switch program {
        case .gatt2mqtt:
            // A family without stop commands streams while connected: the bridge's exit ends its streams.
            for device in devices {
                for command in family.stream.stopCommands {
                    try watcher.publish("\(family.rawValue)/\(device.id)/cmd/\(command.command)", command.payload)
                }
            }
        case .pythonPeer, .floorRelay:
            process.withLock { $0 }?.send(SIGTERM)
        }
    }

    func shutdown(_ devices: [BenchDevice]) async throws {
        guard let running = process.withLock({ $0 }) else { return }
        _ = await running.terminate(grace: .seconds(10))
    }
}
