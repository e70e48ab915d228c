import Foundation
import TestSupport

/// `gatt2mqtt-bench --fleet` (`make bench-fleet`): three gateways of a fleet (`--fleet`, one BlueZoo adapter
/// each) and three virtual belts that every gateway hears, the fixture setting what each adapter hears.
/// Real processes, on three broker topologies in turn (one mosquitto; two bridged mosquittos; a
/// three-node RabbitMQ cluster); the figures come from what an MQTT observer saw. Writes
/// docs/fleet-benchmark.md and FLEET-BENCHMARK.json.
struct FleetBench {
    var refreshSeconds: Double
    var noiseSeconds: Double
    var markdown: String
    var json: String

    static let gateways = 3
    static let belts = 3

    private var refresh: Duration { .milliseconds(Int(refreshSeconds * 1000)) }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        Self.say("starting the world: mosquitto, dbus-daemon, BlueZoo with \(Self.gateways + Self.belts) adapters")
        let world = try await TestWorld.start(.bluezoo, centralAdapters: Self.gateways, peripheralAdapters: Self.belts)
        do {
            try await measure(world, incarnations: folder)
            await world.stop()
        } catch {
            await world.stop()
            throw error
        }
    }

    private func measure(_ world: TestWorld, incarnations folder: String) async throws {
        var ids: [String] = []
        for belt in 0..<Self.belts {
            let process = try await world.startSimulator(["belt"], adapter: "hci\(Self.gateways + belt)")
            let ready = process.lines.first { $0.text.hasPrefix("READY ") }?.text.split(separator: " ") ?? []
            ids.append(ready.count > 2 ? String(ready[2]).lowercased().replacingOccurrences(of: ":", with: "") : "?")
        }
        var sections: [(FleetTopology, FleetRun)] = []
        // The same gateways' incarnation files throughout: each topology's start is a restart, as for an operator.
        let topologies: [() async throws -> FleetTopology] = [
            { .oneBroker(world, gateways: Self.gateways) },
            { try await .bridged(world, gateways: Self.gateways) },
            { try await .rabbitMQ(gateways: Self.gateways) },
            { .defaults(world, gateways: Self.gateways) },
        ]
        for makeTopology in topologies {
            let topology = try await makeTopology()
            do {
                let run = try await FleetRun(
                    world: world, topology: topology, ids: ids,
                    refresh: topology.defaultSettings ? .seconds(10) : refresh, incarnations: folder)
                try await run.hearDefaults()
                try await run.coldStart()
                try await run.repliesPerCommand()
                if topology.defaultSettings {
                    try await run.ownerKilled(belt: 0)
                } else if topology.killLastGatewaysBroker == nil {
                    try await run.noise(seconds: noiseSeconds)
                    try await run.step()
                    try await run.ownerKilled(belt: 1)
                } else {
                    try await run.brokerDeath()
                    try await run.ownerKilled(belt: 0)
                }
                try await run.killedGatewayRestarts()
                run.doubleOwnershipOutsidePartitions()
                await run.stop()
                await topology.stop()
                sections.append((topology, run))
            } catch {
                await topology.stop()
                throw error
            }
        }
        try write(sections)
    }

    private func write(_ sections: [(FleetTopology, FleetRun)]) throws {
        let date = ISO8601DateFormatter().string(from: Date())
        var figures: [String: Any] = [
            "refresh_s": refreshSeconds, "gateways": Self.gateways, "devices": Self.belts, "date": date,
        ]
        for (topology, run) in sections { figures[topology.key] = run.figures }
        let data = try JSONSerialization.data(withJSONObject: figures, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: json))
        let tables = sections.map { topology, run in
            """
            ## \(topology.title)

            \(topology.summary)

            | Measure | Result |
            |---|---|
            \(run.rows.joined(separator: "\n"))
            """
        }
        let text = """
            # Fleet benchmark

            `make bench-fleet` (`gatt2mqtt-bench --fleet`) writes this file and FLEET-BENCHMARK.json. Real processes:
            \(Self.gateways) gatt2mqtt gateways with `--fleet --fleet-refresh-seconds \(refreshSeconds)` (R = \(refreshSeconds) s, so the
            lease is \(refreshSeconds * 3) s; the last section runs them with the default settings instead), one BlueZoo adapter each,
            and \(Self.belts) virtual belts that every adapter hears;
            BlueZoo's fixture sets what each adapter hears (a mean and a noise drawn anew each scan round). Gateway
            gw-N hears belt N best. The same gateways run on three broker topologies in turn. The figures are
            what one MQTT observer saw: claims, `owner`, headings and command replies, each with its arrival
            time. Ownership times scale with R (the default R is 10 s: times ten), except a takeover after a gateway's
            will (an owner SIGKILLed while its broker lives), which waits for no lease; "double ownership" counts the
            50 ms samples in which two gateways' claims, within their lease and not ended by the gateway's will, both
            said `owner` (the gateways themselves end a claim at its gateway's will).

            Run of \(date), on the benchmark machine of BENCHMARKS.md.

            \(tables.joined(separator: "\n\n"))

            ## Reading the figures

            - A hand-over on signal alone waits out the challenge period: the candidate must stay more than the
              16 dB hysteresis stronger for 60 s (fixed, whatever R, like Home Assistant's dwell), so a +20 dB step
              hands over after about a minute, while a dead owner's devices move after its lease and the settle
              time (4.5 R). Noise with σ up to 8 dB never moves a device: the smoothed signal stays within the
              hysteresis.
            - A broker's death is a partition: its gateways are cut off from the rest, and nothing tells them
              that others took their devices over (their broker is gone, with their wills). A cut-off owner
              keeps its link, so the device has two owners until the broker returns and the two meet (rule 6:
              the older term lets go). A device that accepts one connection only, as most do, lets the new
              owner in once the old link drops; BlueZoo's devices accept both. The observer, on a broker that
              stays up, cannot see the cut-off side: "both held" is timed from the takeover to the release.
            - RabbitMQ keeps a retained message on the node that received it and delivers it only to
              subscriptions without wildcards; nothing in the fleet's rules depends on retained messages.
            - Default settings: the gateways start alone, so whichever sees the belts first takes them at once, not
              the one that hears each best; a gateway that hears a belt 20 dB better takes it over after the challenge
              period, as in the +20 dB step above. That is the change counted after the restart there: the restarted
              gateway hears belt 1 20 dB better than the survivor that took it over at the SIGKILL. The SIGKILL takeover
              itself waits for no lease, whatever R.

            """
        // The fleet-scale tables (`--fleet-scale`) are another bench's: kept as they were.
        let kept = (try? String(contentsOfFile: markdown, encoding: .utf8)).flatMap(ScaleSection.block(of:))
        try (kept.map { text + "\n" + $0 + "\n" } ?? text).write(toFile: markdown, atomically: true, encoding: .utf8)
    }

    /// Unbuffered, so that progress shows as it happens also when the output goes to a file.
    static func say(_ text: String) { FileHandle.standardOutput.write(Data("bench-fleet: \(text)\n".utf8)) }
}
