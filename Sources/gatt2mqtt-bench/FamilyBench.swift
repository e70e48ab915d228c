import Foundation
import TestSupport

/// Every family's main stream (each registered family's `FamilyStream`: belt headings, Activ5 force, CPR-band
/// peaks, grip events, heart rates) through the floor relay, gatt2mqtt and the Python relay, one after another, with the same virtual devices: the rows that
/// hold gatt2mqtt's cost per message against the least a central can do and against the relay a user
/// would otherwise write. No commands run meanwhile (the Activ5 matrix measures those).
struct FamilyBench {
    var families: [BenchFamily]
    var devices: Int
    var rates: [Int]
    var seconds: Double
    var acquireNotify: Bool
    /// Which relays: `floor-relay`, `gatt2mqtt`, `peer`.
    var relays: Set<Substring>
    var logs: String
    /// After each family's rows, one device at this rate with gatt2mqtt under callgrind; nil for none.
    var instructionRate: Int? = nil

    /// Runs every family at every rate; `rowDone` is told of each row as it ends (the report is written then),
    /// and `instructionsDone` of each family's count under callgrind.
    func run(
        world: TestWorld, watcher: BrokerWatcher, forget: DBusFloor, rowDone: (BenchReport.FamilyRow) throws -> Void,
        instructionsDone: (FamilyInstructionRow) throws -> Void = { _ in }
    ) async throws {
        for family in families {
            for rate in rates {
                let simulators = try await startSimulators(family, rate: rate, count: devices, world: world)
                let row = await measure(family, rate: rate, devices: simulators.devices, world: world, watcher: watcher)
                await finish(simulators, forget: forget, watcher: watcher)
                try rowDone(row)
            }
            if let instructionRate {
                let simulators = try await startSimulators(family, rate: instructionRate, count: 1, world: world)
                let row = await countInstructions(
                    family, rate: instructionRate, devices: simulators.devices, world: world, watcher: watcher)
                await finish(simulators, forget: forget, watcher: watcher)
                try instructionsDone(row)
            }
        }
    }

    private func finish(
        _ simulators: (devices: [BenchDevice], processes: [ManagedProcess]), forget: DBusFloor, watcher: BrokerWatcher
    ) async {
        for process in simulators.processes { _ = await process.terminate(grace: .seconds(5)) }
        // The next family's device takes the same address: BlueZ must not remember this one's services and name.
        for device in simulators.devices { await forget.remove(device.address, on: device.central) }
        watcher.clearReceptions()
    }

    private func startSimulators(
        _ family: BenchFamily, rate: Int, count: Int, world: TestWorld
    ) async throws -> (devices: [BenchDevice], processes: [ManagedProcess]) {
        var devices: [BenchDevice] = []
        var processes: [ManagedProcess] = []
        for index in 1...count {
            let adapter = world.peripheralAdapter(index)
            let device = BenchDevice(
                adapter: adapter, central: world.bridgeAdapters[0],
                address: world.adapterAddresses[world.bridgeAdapters.count + index - 1],
                trafficLog: "\(logs)/\(family.rawValue)-\(rate)-\(adapter).log")
            processes.append(
                try await world.startSimulator(
                    ["--traffic-log", device.trafficLog, "--notification-gap-ms", "0", "--log-level", "warning"]
                        + family.simulatorArguments(rate: rate, name: index),
                    adapter: adapter))
            devices.append(device)
        }
        return (devices, processes)
    }

    private func measure(
        _ family: BenchFamily, rate: Int, devices: [BenchDevice], world: TestWorld, watcher: BrokerWatcher
    ) async -> BenchReport.FamilyRow {
        var row = BenchReport.FamilyRow(family: family, devices: devices.count, rate: rate)
        let phase = StreamPhase(family: family, devices: devices, rate: rate, seconds: seconds, commandsPerSecond: 0)
        let label = "\(family.streamName), \(devices.count) × \(rate)/s"
        for (key, program) in [
            ("floor-relay", ProcessRelay.Program.floorRelay), ("gatt2mqtt", .gatt2mqtt), ("peer", .pythonPeer),
        ] where relays.contains(Substring(key)) {
            let relay = ProcessRelay(
                program, family: family, world: world, watcher: watcher, acquireNotify: acquireNotify)
            print("bench: \(label): \(relay.name)")
            do {
                let figures = try await phase.run(relay)
                switch program {
                case .floorRelay: row.floorRelay = figures
                case .gatt2mqtt: row.gatt2mqtt = figures
                case .pythonPeer: row.peer = figures
                }
                print(
                    "bench: \(label): \(relay.name): \(figures.notificationLatency.text) ms, lost \(figures.lost) of \(figures.sent), CPU \(figures.cpuMillisecondsPer1000.map { String(format: "%.1f", $0) } ?? "–") ms/1000, RSS \(figures.residentKilobytes ?? 0) KiB"
                )
            } catch {
                print("bench: \(label): FAILED \(relay.name): \(error)")
                row.failures.append("\(relay.name): \(error)")
            }
        }
        return row
    }

    /// gatt2mqtt alone under callgrind: its dumps go to .build/bench-callgrind/<family>.
    private func countInstructions(
        _ family: BenchFamily, rate: Int, devices: [BenchDevice], world: TestWorld, watcher: BrokerWatcher
    ) async -> FamilyInstructionRow {
        var row = FamilyInstructionRow(family: family, devices: devices.count, rate: rate)
        let folder = ProjectPaths.root + "/.build/bench-callgrind/\(family.rawValue)"
        let label = "\(family.streamName), \(devices.count) × \(rate)/s under callgrind"
        do {
            let callgrind = try Callgrind.inEmptyFolder(folder)
            let relay = ProcessRelay(
                .gatt2mqtt, family: family, world: world, watcher: watcher, acquireNotify: acquireNotify,
                callgrind: callgrind)
            print("bench: \(label): \(relay.name)")
            let figures = try await StreamPhase(
                family: family, devices: devices, rate: rate, seconds: seconds, commandsPerSecond: 0
            ).run(relay)
            row.gatt2mqtt = figures
            print(
                "bench: \(label): \(figures.instructionsPerMessage.map { String(format: "%.0f", $0) } ?? "–") instructions a value (the notification path \(figures.notificationPathInstructionsPerMessage.map { String(format: "%.0f", $0) } ?? "–"))"
            )
        } catch {
            print("bench: \(label): FAILED: \(error)")
            row.failures.append("\(error)")
        }
        return row
    }
}
