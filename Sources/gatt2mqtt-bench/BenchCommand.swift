import ArgumentParser
import Foundation
import Logging
import TestSupport

/// `gatt2mqtt-bench`: the BlueZoo world of the tests with up to 50 virtual Activ5s streaming force;
/// for each device count and rate, the same stream through the D-Bus floor, the MQTT floor, gatt2mqtt
/// and a Python relay, one after another. Then every family's stream (`FamilyBench`) through the floor
/// relay, gatt2mqtt and the Python relay. Writes BENCHMARKS.json and the results section of
/// BENCHMARKS.md. Run it through `make bench` (release build, set-up included).
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt2mqtt-bench",
        abstract: "Measures gatt2mqtt against its floor and a Python peer (BENCHMARKS.md).",
        subcommands: [FloorRelayCommand.self])

    @Option(help: "Device counts, comma-separated.")
    var devices = "1,10,50"

    @Option(help: "Notifications per second per device, comma-separated.")
    var rates = "50,200"

    @Option(help: "Length of each measuring window, in seconds.")
    var seconds = 10.0

    @Option(help: "Sample-period commands per second per device during each window (0 for none).")
    var commandRate = 5.0

    @Option(help: "Where to write the raw figures.")
    var json = "BENCHMARKS.json"

    @Option(help: "The Markdown file whose results section is replaced.")
    var markdown = "BENCHMARKS.md"

    @Option(
        help:
            "Which relays to run, comma-separated: mqtt-floor, dbus-floor, floor-relay, gatt2mqtt, peer (default all; the real world has no peer)."
    )
    var relays: String?

    @Flag(inversion: .prefixedNo, help: "Run the Activ5 matrix (--devices × --rates).")
    var matrix = true

    @Option(
        help:
            "Families whose main stream runs through the floor relay, gatt2mqtt and the Python relay: \(BenchFamily.names), comma-separated, or none (BlueZoo only)."
    )
    var families = BenchFamily.allValueStrings.joined(separator: ",")

    @Option(help: "Devices in each family row.")
    var familyDevices = 10

    @Option(help: "Notifications per second per device in the family rows, comma-separated.")
    var familyRates = "50,200"

    @Option(
        help: ArgumentHelp(
            "After each family's rows, count its instructions per value under callgrind with one device at this rate, or none.",
            discussion:
                "gatt2mqtt alone, without commands: the whole process's and the notification path's instructions per value, and from them the share of a Cortex-A53 core that ten devices at 50/s need (BENCHMARKS.md, on paper). The dumps stay in .build/bench-callgrind/<family>."
        ))
    var familyInstructions = "50"

    @Option(
        help: ArgumentHelp(
            "The BlueZ to measure against: bluezoo, or real (the real bluetoothd in the test guest).",
            discussion:
                "In the real world every device gets a central adapter of its own (btvirt's controllers hold one working link each), and the Python relay is not run: bleak needs file-descriptor passing, which the guest's TCP bus lacks, and inside the guest it cannot reach the broker."
        ))
    var world = "bluezoo"

    @Option(
        help: ArgumentHelp(
            "Listen on the bus during gatt2mqtt's phase in rows of up to this many devices (0 for none).",
            discussion:
                "The listener is one more receiver of every signal for dbus-daemon and the benchmark's process: with 50 devices it adds to the load it should only observe."
        ))
    var busTapDevices = 10

    @Option(
        help: ArgumentHelp(
            "How every relay subscribes to the force stream: acquire (AcquireNotify where BlueZ offers it, StartNotify where the bus cannot pass the socket) or start (StartNotify only).",
            discussion:
                "The same for the D-Bus floor, gatt2mqtt (--start-notify) and the Python relay (bleak's use_start_notify), so that each row compares like with like."
        ))
    var notify = "acquire"

    @Option(
        help: ArgumentHelp(
            "Count instructions per message under callgrind in this row (DEVICESxRATE), or none.",
            discussion:
                "The row runs again, without commands, with gatt2mqtt and the Python relay each under valgrind's callgrind (about 50 times slower): user-space instructions over the window divided by the messages delivered, a figure that repeats for the same binary whatever else the machine does. The dumps stay in .build/bench-callgrind for callgrind_annotate."
        ))
    var instructions = "1x50"

    // The other benchmarks, each with its options in its own file.
    @OptionGroup var fleetBench: FleetBenchOptions
    @OptionGroup var fleetScaleBench: FleetScaleBenchOptions
    @OptionGroup var soakBench: SoakBenchOptions

    private var chosen: Set<Substring> {
        Set(
            (relays
                ?? (isReal ? "mqtt-floor,dbus-floor,gatt2mqtt" : "mqtt-floor,dbus-floor,floor-relay,gatt2mqtt,peer"))
                .split(separator: ","))
    }

    private var isReal: Bool { world == "real" }

    /// The share of its values the D-Bus floor may lose before a row counts as past the world's saturation.
    static let saturationLoss = 0.01

    private var acquireNotify: Bool { notify == "acquire" }

    func validate() throws {
        guard ["acquire", "start"].contains(notify) else {
            throw ValidationError("--notify takes acquire or start, not '\(notify)'")
        }
    }

    func run() async throws {
        // The MQTT and D-Bus layers log connections at info; the report is what this prints.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        if fleetBench.fleet { return try await fleetBench.run() }
        if fleetScaleBench.fleetScale { return try await fleetScaleBench.run() }
        if soakBench.soak { return try await soakBench.run(markdown: markdown) }
        let deviceCounts = try Self.numbers(devices, "--devices")
        let rateList = try Self.numbers(rates, "--rates")
        guard rateList.allSatisfy({ (1...1000).contains($0) }) else {
            throw ValidationError("--rates: 1 to 1000 per second")
        }
        guard ["bluezoo", "real"].contains(world) else { throw ValidationError("--world: bluezoo or real") }
        let instructionRow = InstructionCount.row(instructions)
        guard instructions == "none" || instructionRow != nil else {
            throw ValidationError("--instructions: DEVICESxRATE (1x50) or none")
        }
        let familyList: [BenchFamily] =
            try isReal || families == "none"
            ? []
            : families.split(separator: ",").map { name in
                guard let family = BenchFamily(rawValue: String(name)) else {
                    throw ValidationError("--families: \(BenchFamily.names) or none, not '\(name)'")
                }
                return family
            }
        let familyRateList = try Self.numbers(familyRates, "--family-rates")
        let familyInstructionRate = familyInstructions == "none" ? nil : Int(familyInstructions)
        guard familyInstructions == "none" || familyInstructionRate.map({ (1...1000).contains($0) }) == true else {
            throw ValidationError("--family-instructions: a rate from 1 to 1000, or none")
        }
        guard (1...50).contains(familyDevices), familyRateList.allSatisfy({ (1...1000).contains($0) }) else {
            throw ValidationError("--family-devices: 1 to 50; --family-rates: 1 to 1000 per second")
        }
        let matrixMost = matrix ? max(deviceCounts.max() ?? 1, instructionRow?.devices ?? 1) : 0
        let most = max(matrixMost, familyList.isEmpty ? 0 : familyDevices, 1)
        if isReal, chosen.contains("peer") {
            throw ValidationError("--relays: the real world cannot run the Python relay (see --help)")
        }
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("gatt2mqtt-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: logs) }

        let centrals = isReal ? most : 1
        say(
            isReal
                ? "starting the world: mosquitto and the real bluetoothd's guest with \(2 * most) controllers"
                : "starting the world: mosquitto, dbus-daemon, BlueZoo with \(most + 1) adapters")
        let world = try await TestWorld.start(
            isReal ? .real : .bluezoo, centralAdapters: centrals, peripheralAdapters: most)
        var report = BenchReport(
            date: ISO8601DateFormatter().string(from: Date()), machine: Environment.machine(),
            versions: Environment.versions(),
            settings: [
                "window": "\(seconds) s", "commands": "\(commandRate)/s per device",
                "payload": "force, 2 bytes (int16 sequence)",
                "world": isReal ? "real bluetoothd 5.66, btvirt controllers, qemu guest (TCG)" : "BlueZoo",
                "notifications": acquireNotify && !isReal
                    ? "AcquireNotify (a socket per stream)" : "StartNotify (PropertiesChanged on the bus)",
            ],
            rows: [])
        do {
            let watcher = try await BrokerWatcher(port: world.broker.port)
            var fleet: [BenchDevice] = []
            var simulators: [ManagedProcess] = []
            for index in 1..<matrixMost + 1 {
                let adapter = world.peripheralAdapter(index)
                let device = BenchDevice(
                    adapter: adapter, central: world.bridgeAdapters[isReal ? index - 1 : 0],
                    address: world.adapterAddresses[centrals + index - 1], trafficLog: "\(logs)/\(adapter).log")
                simulators.append(
                    try await world.startSimulator(
                        [
                            "--traffic-log", device.trafficLog, "--notification-gap-ms", "0", "--log-level", "warning",
                            "a5",
                            "--sequence-force", "--minimum-period-ms", "1", "--power-off-seconds", "86400",
                            "--name", String(format: "ACTIV5-BE-%04d", index),
                        ],
                        adapter: device.adapter))
                fleet.append(device)
            }
            if matrixMost > 0 { say("\(matrixMost) virtual Activ5s advertising") }
            let floorRelay = try DBusFloorRelay(busAddress: world.busAddress, acquireNotify: acquireNotify)
            defer { floorRelay.close() }
            for count in deviceCounts.sorted() where matrix {
                for rate in rateList.sorted() {
                    let row = await measure(
                        Array(fleet.prefix(count)), rate: rate, world: world, watcher: watcher, floorRelay: floorRelay)
                    watcher.clearReceptions()
                    report.rows.append(row)
                    try write(report)
                }
            }
            if matrix, let instructionRow {
                report.instructions = await countInstructions(
                    Array(fleet.prefix(instructionRow.devices)), rate: instructionRow.rate, world: world,
                    watcher: watcher)
                try write(report)
            }
            for simulator in simulators { _ = await simulator.terminate(grace: .seconds(5)) }
            for device in fleet { await floorRelay.floor.remove(device.address, on: device.central) }
            if !familyList.isEmpty {
                let bench = FamilyBench(
                    families: familyList, devices: familyDevices, rates: familyRateList.sorted(), seconds: seconds,
                    acquireNotify: acquireNotify,
                    relays: chosen, logs: logs,
                    instructionRate: chosen.contains("gatt2mqtt") ? familyInstructionRate : nil)
                try await bench.run(world: world, watcher: watcher, forget: floorRelay.floor) { row in
                    report.families.append(row)
                    try write(report)
                } instructionsDone: { row in
                    report.familyInstructions.append(row)
                    try write(report)
                }
            }
            await watcher.stop()
        } catch {
            await world.stop()
            throw error
        }
        await world.stop()
        say("wrote \(json) and \(markdown)")
    }

    private func measure(
        _ devices: [BenchDevice], rate: Int, world: TestWorld, watcher: BrokerWatcher, floorRelay: DBusFloorRelay
    ) async -> BenchReport.Row {
        var row = BenchReport.Row(devices: devices.count, rate: rate)
        let phase = StreamPhase(devices: devices, rate: rate, seconds: seconds, commandsPerSecond: commandRate)
        let label = "\(devices.count) × \(rate)/s"

        if chosen.contains("mqtt-floor") {
            say("\(label): MQTT floor")
            do {
                row.mqttFloor = try await MQTTFloorPhase(port: world.broker.port, watcher: watcher).run(
                    ids: devices.map(\.id), rate: rate, seconds: seconds)
            } catch { row.failures.append("MQTT floor: \(error)") }
        }
        if chosen.contains("dbus-floor") {
            say("\(label): D-Bus floor")
            do { row.dbusFloor = try await phase.run(floorRelay) } catch {
                row.failures.append("D-Bus floor: \(error)")
            }
        }
        // Where the least a central can do fails or loses values, the BlueZ world itself is saturated: no relay
        // can do better, and its backlog would only slow the rows after this one.
        if chosen.contains("dbus-floor"), row.dbusFloor == nil {
            row.failures.append(
                "beyond the BlueZ world's saturation: the D-Bus floor failed, so the relays were not run")
            return finish(row, label: label)
        }
        if let floor = row.dbusFloor, floor.sent > 0, Double(floor.lost) > Self.saturationLoss * Double(floor.sent) {
            row.failures.append(
                "beyond the BlueZ world's saturation: the D-Bus floor lost \(floor.lost) of \(floor.sent) values, so the relays were not run"
            )
            return finish(row, label: label)
        }
        if chosen.contains("gatt2mqtt") {
            say("\(label): gatt2mqtt")
            let bridge = ProcessRelay(.gatt2mqtt, world: world, watcher: watcher, acquireNotify: acquireNotify)
            var tapped = phase
            if devices.count <= busTapDevices { tapped.busTap = floorRelay.floor }
            do {
                row.gatt2mqtt = try await tapped.run(bridge)
                row.startup = bridge.startup
            } catch { row.failures.append("gatt2mqtt: \(error)") }
        }
        if chosen.contains("peer") {
            say("\(label): Python relay")
            let peer = ProcessRelay(.pythonPeer, world: world, watcher: watcher, acquireNotify: acquireNotify)
            do { row.peer = try await phase.run(peer) } catch { row.failures.append("Python relay: \(error)") }
        }
        return finish(row, label: label)
    }

    /// Runs the row again with gatt2mqtt and the Python relay under callgrind (BenchReport's instruction table).
    private func countInstructions(_ devices: [BenchDevice], rate: Int, world: TestWorld, watcher: BrokerWatcher) async
        -> InstructionCount
    {
        var count = InstructionCount(devices: devices.count, rate: rate)
        let label = "\(devices.count) × \(rate)/s under callgrind"
        let folder = ProjectPaths.root + "/.build/bench-callgrind"
        let callgrind: Callgrind
        do {
            callgrind = try Callgrind.inEmptyFolder(folder)
        } catch {
            count.failures.append("cannot create \(folder): \(error)")
            return count
        }
        let phase = StreamPhase(devices: devices, rate: rate, seconds: seconds, commandsPerSecond: 0)
        for program in [ProcessRelay.Program.gatt2mqtt, .pythonPeer]
        where chosen.contains(program == .gatt2mqtt ? "gatt2mqtt" : "peer") {
            let relay = ProcessRelay(
                program, world: world, watcher: watcher, acquireNotify: acquireNotify, callgrind: callgrind)
            say("\(label): \(relay.name)")
            do {
                let figures = try await phase.run(relay)
                say(
                    "\(label): \(relay.name): \(figures.instructionsPerMessage.map { String(format: "%.0f", $0) } ?? "–") instructions per message (the notification path \(figures.notificationPathInstructionsPerMessage.map { String(format: "%.0f", $0) } ?? "–")), \(String(format: "%.0f", figures.receivedPerSecond))/s delivered"
                )
                if program == .gatt2mqtt { count.gatt2mqtt = figures } else { count.peer = figures }
            } catch {
                say("\(label): FAILED \(relay.name): \(error)")
                count.failures.append("\(relay.name): \(error)")
            }
        }
        return count
    }

    /// Prints a row's figures and failures.
    private func finish(_ row: BenchReport.Row, label: String) -> BenchReport.Row {
        for figures in [row.mqttFloor, row.dbusFloor, row.gatt2mqtt, row.peer].compactMap({ $0 }) {
            say(
                "\(label): \(figures.relay): \(figures.notificationLatency.text) ms (on the bus: \(figures.busLatency?.text ?? "–")), lost \(figures.lost) of \(figures.sent), commands \(figures.commandLatency.text) ms, CPU \(figures.cpuMillisecondsPer1000.map { String(format: "%.1f", $0) } ?? "–") ms/1000, RSS \(figures.residentKilobytes ?? 0) KiB"
            )
        }
        for failure in row.failures { say("\(label): FAILED \(failure)") }
        return row
    }

    private func write(_ report: BenchReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: json))
        try ResultsSection(name: isReal ? "results-real" : "results").replace(in: markdown, with: report.markdown())
    }

    private func say(_ text: String) { print("bench: \(text)") }

    static func numbers(_ text: String, _ option: String) throws -> [Int] {
        let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw ValidationError("\(option): positive numbers, comma-separated")
        }
        return values.compactMap { $0 }
    }
}
