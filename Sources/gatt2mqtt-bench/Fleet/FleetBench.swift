import Foundation
import TestSupport

/// `gatt2mqtt-bench --fleet` (`make bench-fleet`): three gateways of a fleet (`--fleet`, one BlueZoo adapter
/// each) and three virtual belts that every gateway hears, the fixture setting what each adapter hears.
/// Real processes on one mosquitto broker; the figures come from what an MQTT observer saw. Writes
/// docs/fleet-benchmark.md and FLEET-BENCHMARK.json.
struct FleetBench {
    var refreshSeconds: Double
    var noiseSeconds: Double
    var markdown: String
    var json: String

    static let gateways = 3
    static let belts = 3

    private var refresh: Duration { .milliseconds(Int(refreshSeconds * 1000)) }
    private var lease: Duration { refresh * 3 }

    func run() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-bench-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        say("starting the world: mosquitto, dbus-daemon, BlueZoo with \(Self.gateways + Self.belts) adapters")
        let world = try await TestWorld.start(.bluezoo, centralAdapters: Self.gateways, peripheralAdapters: Self.belts)
        do {
            try await measure(world, folder: folder)
            await world.stop()
        } catch {
            await world.stop()
            throw error
        }
    }

    /// Adapter `hci<gateway>` hears belt `belt` (on adapter `hci<gateways + belt>`) at `mean` dBm ± `sigma`.
    private func hear(_ world: TestWorld, gateway: Int, belt: Int, _ mean: Int16, sigma: UInt8 = 0) async throws {
        try await world.setSignal(adapter: gateway, device: Self.gateways + belt, mean: mean, sigma: sigma)
    }

    private func measure(_ world: TestWorld, folder: String) async throws {
        // Each gateway hears "its" belt best (−50 dBm) and the others at −70 dBm.
        for gateway in 0..<Self.gateways {
            for belt in 0..<Self.belts { try await hear(world, gateway: gateway, belt: belt, gateway == belt ? -50 : -70) }
        }
        var ids: [String] = []
        for belt in 0..<Self.belts {
            let process = try await world.startSimulator(["belt"], adapter: "hci\(Self.gateways + belt)")
            let ready = process.lines.first { $0.text.hasPrefix("READY ") }?.text.split(separator: " ") ?? []
            ids.append(ready.count > 2 ? String(ready[2]).lowercased().replacingOccurrences(of: ":", with: "") : "?")
        }
        let devices = ids.map { "belt/\($0)" }
        let observer = try FleetObserver(url: world.broker.url)
        try await observer.start()
        defer { Task { await observer.stop() } }
        var figures: [String: Any] = ["refresh_s": refreshSeconds, "gateways": Self.gateways, "devices": Self.belts]
        var lines: [String] = []

        // 1. A cold start of every gateway at once.
        say("cold start: \(Self.gateways) gateways × \(Self.belts) belts")
        let coldStart = ContinuousClock.now
        var processes: [ManagedProcess] = []
        for gateway in 0..<Self.gateways {
            processes.append(try await world.startBridge(
                gateway: "gw-\(gateway + 1)", adapters: ["hci\(gateway)"],
                extraArguments: ["--fleet", "--fleet-refresh-seconds", "\(refreshSeconds)", "--fleet-incarnation-file", "\(folder)/gw-\(gateway + 1)"]))
        }
        var settled: ContinuousClock.Instant?
        while settled == nil, ContinuousClock.now - coldStart < .seconds(120) {
            let now = ContinuousClock.now
            let events = observer.all
            if devices.allSatisfy({ FleetFigures.owners(of: $0, at: now, events: events, lease: lease).count == 1 }) { settled = now }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: refresh * 5)
        let afterSettle = observer.all
        let ownerCounts = devices.map { FleetFigures.owners(of: $0, at: .now, events: afterSettle, lease: lease).count }
        let settleSeconds = settled.map { ($0 - coldStart) / .seconds(1) }
        figures["cold_start_settle_s"] = settleSeconds ?? -1
        figures["settled_owner_counts"] = ownerCounts
        lines.append("| Cold start of \(Self.gateways) gateways × \(Self.belts) belts: every belt has one owner after | "
            + (settleSeconds.map { String(format: "%.1f s", $0) } ?? "not within 120 s") + " (the gateways' own start included) |")
        lines.append("| Owners per belt 5 R later (goal: exactly 1) | \(ownerCounts.map(String.init).joined(separator: ", ")) |")

        // 2. Replies per command.
        say("replies per command")
        let commandsPerDevice = 10
        for (index, id) in ids.enumerated() {
            for number in 0..<commandsPerDevice {
                try observer.publish("belt/\(id)/cmd/orientation", #"{"enabled":true}"#, responseTopic: "bench/replies/\(index)/\(number)")
            }
        }
        let unowned = "belt/0000000000ff"
        for number in 0..<commandsPerDevice {
            try observer.publish("\(unowned)/cmd/orientation", #"{"enabled":true}"#, responseTopic: "bench/replies/nobody/\(number)")
        }
        try await Task.sleep(for: lease + .seconds(2))
        let replies = observer.all.filter { $0.topic.hasPrefix("bench/replies/") }
        let perCommand = Dictionary(grouping: replies, by: \.topic).mapValues(\.count)
        let owned = (0..<ids.count).flatMap { index in (0..<commandsPerDevice).map { perCommand["bench/replies/\(index)/\($0)"] ?? 0 } }
        let nobody = (0..<commandsPerDevice).map { perCommand["bench/replies/nobody/\($0)"] ?? 0 }
        figures["replies_per_command_owned"] = owned
        figures["replies_per_command_unowned"] = nobody
        lines.append("| Replies per command to an owned belt (\(owned.count) commands; goal: exactly 1) | min \(owned.min() ?? 0), max \(owned.max() ?? 0) |")
        lines.append("| Replies per command to a belt no gateway has (\(nobody.count) commands; goal: exactly 1, `not_connected`) | min \(nobody.min() ?? 0), max \(nobody.max() ?? 0) |")

        // 3. Noise on belt 1 between the two gateways that hear it best.
        say("noise: \(noiseSeconds) s per setting")
        var noiseRows: [[String: Any]] = []
        let noisy = "belt/\(ids[0])/owner"
        for sigma in [4, 8] as [UInt8] {
            for gap in [0, 8, 15] as [Int16] {
                try await hear(world, gateway: 0, belt: 0, -60, sigma: sigma)
                try await hear(world, gateway: 1, belt: 0, -60 - gap, sigma: sigma)
                try await hear(world, gateway: 2, belt: 0, -90, sigma: sigma)
                let start = ContinuousClock.now
                try await Task.sleep(for: .milliseconds(Int(noiseSeconds * 1000)))
                let changes = FleetFigures.ownerChanges(topic: noisy, from: start, to: .now, events: observer.all)
                let perHour = Double(changes) / (noiseSeconds / 3600)
                noiseRows.append(["sigma_db": Int(sigma), "gap_db": Int(gap), "changes": changes, "per_device_hour": perHour])
                // One window is short: a rate per device-hour is shown only for what was seen, never extrapolated from none.
                let rate = changes == 0 ? "" : " (\(Int(perHour.rounded())) per device-hour)"
                lines.append("| Ownership changes under noise, σ \(sigma) dB, mean gap \(gap) dB (goal: 0) | \(changes) in \(Int(noiseSeconds)) s\(rate) |")
            }
        }
        figures["noise"] = noiseRows
        for gateway in 0..<Self.gateways { try await hear(world, gateway: gateway, belt: 0, gateway == 0 ? -50 : -70) }

        // 4. A +20 dB step: gw-3 comes to hear belt 2 (owned by gw-2) 20 dB better than its owner does.
        say("+20 dB step")
        let stepped = ids[1]
        let (stepSeconds, stepGap) = try await handOver(of: stepped, observer: observer, to: { $0 == "gw-3" }) {
            try await hear(world, gateway: 2, belt: 1, -30)
        }
        figures["step_handover_s"] = stepSeconds ?? -1
        figures["step_data_gap_s"] = stepGap
        lines.append("| Hand-over after a +20 dB step: the new owner publishes `owner` after | "
            + (stepSeconds.map { String(format: "%.1f s", $0) } ?? "not within 90 s") + String(format: "; longest heading gap %.1f s |", stepGap))

        // 5. The owner of belt 2 (now gw-3) dies without a goodbye.
        say("SIGKILL of an owner")
        let (takeover, deathGap) = try await handOver(of: stepped, observer: observer, to: { $0 != "gw-3" }) { processes[2].send(SIGKILL) }
        figures["sigkill_takeover_s"] = takeover ?? -1
        figures["sigkill_data_gap_s"] = deathGap
        lines.append("| Owner SIGKILLed: another gateway publishes `owner` after | "
            + (takeover.map { String(format: "%.1f s", $0) } ?? "not within 90 s") + String(format: "; heading gap %.1f s |", deathGap))

        // Double ownership over the whole run, from the cold start's settling on.
        let end = ContinuousClock.now
        let events = observer.all
        let double = devices.map { FleetFigures.doubleOwnership(of: $0, from: settled ?? coldStart, to: end, events: events, lease: lease) }
        figures["double_ownership_s"] = double
        lines.insert("| Seconds of double ownership over the run (\(Int((end - (settled ?? coldStart)) / .seconds(1))) s, per belt; goal: 0) | \(double.map { String(format: "%.1f", $0) }.joined(separator: ", ")) |", at: 2)

        figures["date"] = ISO8601DateFormatter().string(from: Date())
        try write(lines: lines, figures: figures)
        for process in processes where process.isRunning { _ = await process.terminate() }
    }

    /// Does `cause`, then waits (up to 90 s) for belt `id`'s `owner` to name a gateway `to` accepts. Returns
    /// the seconds that took (nil when it did not happen) and the belt's longest heading gap from the cause
    /// to 5 s after.
    private func handOver(
        of id: String, observer: FleetObserver, to accepted: @escaping (String) -> Bool, cause: () async throws -> Void
    ) async throws -> (seconds: Double?, gap: Double) {
        let start = ContinuousClock.now
        try await cause()
        let taken = await observer.wait(since: start, timeout: .seconds(90)) { $0.topic == "belt/\(id)/owner" && accepted($0.payload) }
        try await Task.sleep(for: .seconds(5))
        let gap = FleetFigures.longestGap(topic: "belt/\(id)/heading", from: start, to: .now, events: observer.all)
        return (taken.map { ($0.at - start) / .seconds(1) }, gap / .seconds(1))
    }

    private func write(lines: [String], figures: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: figures, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: json))
        let date = figures["date"] as? String ?? ""
        let text = """
            # Fleet benchmark

            `make bench-fleet` (`gatt2mqtt-bench --fleet`) writes this file and FLEET-BENCHMARK.json. Real processes:
            one mosquitto broker, \(Self.gateways) gatt2mqtt gateways with `--fleet --fleet-refresh-seconds \(refreshSeconds)` (R = \(refreshSeconds) s,
            so the lease is \(refreshSeconds * 3) s), one BlueZoo adapter each, and \(Self.belts) virtual belts that every adapter hears;
            BlueZoo's fixture sets what each adapter hears (a mean and a noise drawn anew each scan round). The
            figures are what one MQTT observer saw: claims, `owner`, headings and command replies, each with its
            arrival time. Ownership times scale with R (the default R is 10 s: times ten); "double ownership"
            counts the 50 ms samples in which two gateways' claims, within their lease, both said `owner`.

            Run of \(date), on the benchmark machine of BENCHMARKS.md.

            | Measure | Result |
            |---|---|
            \(lines.joined(separator: "\n"))

            A hand-over on signal alone waits out the challenge period: the candidate must stay more than the
            16 dB hysteresis stronger for 60 s (fixed, whatever R, like Home Assistant's dwell), so a +20 dB step
            hands over after about a minute, while a dead owner's devices move after its lease and the settle
            time (4.5 R). Noise with σ up to 8 dB never moves a device: the smoothed signal stays within the
            hysteresis.

            Not measured here (#15 keeps them open): two bridged brokers with one killed, and a three-node
            RabbitMQ cluster; a partition, where double ownership is expected until it heals.

            """
        try text.write(toFile: markdown, atomically: true, encoding: .utf8)
    }

    /// Unbuffered, so that progress shows as it happens also when the output goes to a file.
    private func say(_ text: String) { FileHandle.standardOutput.write(Data("bench-fleet: \(text)\n".utf8)) }
}
