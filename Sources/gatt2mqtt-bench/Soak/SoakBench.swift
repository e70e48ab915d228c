import Foundation
import TestSupport

/// `gatt2mqtt-bench --soak` (`make bench-soak`): one gatt2mqtt for an hour in the BlueZoo world, with
/// virtual Activ5s streaming force, a command a second (round robin over the devices), the broker
/// restarted every 5 minutes and BlueZ killed and started again every 15 (half-way between two broker
/// restarts, so each recovery is measured on its own). The broker keeps its sessions (persistence), as
/// a production broker does. Measures commands lost, gatt2mqtt's resident memory every 10 s and its
/// trend, and how long every stream took to come back after each restart. Writes SOAK.json and the
/// `soak` section of BENCHMARKS.md.
struct SoakBench {
    var minutes: Double
    var devices: Int
    var rate: Int
    var brokerRestartMinutes: Double
    var bluezRestartMinutes: Double
    var markdown: String
    var json: String

    static let gateway = "soak"
    /// Commands go out until this long before the end; then the soak waits for their answers.
    static let grace: Duration = .seconds(60)
    static let sampleInterval: Duration = .seconds(10)

    func run() async throws {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("gatt2mqtt-soak-\(getpid())").path
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: logs) }
        var brokerOptions = MosquittoBroker.Options()
        brokerOptions.persistence = true
        say("starting the world: mosquitto (persistent), dbus-daemon, BlueZoo with \(devices + 1) adapters")
        let world = try await TestWorld.start(
            .bluezoo, centralAdapters: 1, peripheralAdapters: devices, broker: brokerOptions)
        do {
            try await soak(world, logs: logs)
            await world.stop()
        } catch {
            await world.stop()
            throw error
        }
    }

    private func soak(_ world: TestWorld, logs: String) async throws {
        var ids: [String] = []
        var addresses: [String] = []
        for index in 1...devices {
            let adapter = world.peripheralAdapter(index)
            _ = try await world.startSimulator(
                [
                    "--notification-gap-ms", "0", "--log-level", "warning", "a5", "--sequence-force",
                    "--minimum-period-ms", "1",
                    "--power-off-seconds", "86400", "--name", String(format: "ACTIV5-SOAK-%02d", index),
                ],
                adapter: adapter)
            let address = world.adapterAddresses[index]
            addresses.append(address)
            ids.append(address.lowercased().replacingOccurrences(of: ":", with: ""))
        }
        let commander = try await SoakCommander(port: world.broker.port, gateway: Self.gateway)
        let bridge = try await world.startBridge(
            gateway: Self.gateway,
            extraArguments: ["--log-level", "info", "--adapter-slots", "\(devices)", "--health-seconds", "60"]
                + addresses.flatMap { ["--allow", $0] })
        var figures = SoakFigures(
            date: ISO8601DateFormatter().string(from: Date()), machine: Environment.machine(),
            versions: Environment.versions(),
            settings: [
                "world": "BlueZoo", "broker": "mosquitto with persistence; both clients with persistent sessions",
                "commands": "1/s, sample_period, round robin",
                "broker restarts": "every \(brokerRestartMinutes) min (SIGTERM, start)",
                "BlueZ restarts": "every \(bluezRestartMinutes) min (SIGKILL, start)", "RSS samples": "every 10 s",
            ],
            plannedMinutes: minutes, devices: devices, rate: rate, warmUpSeconds: min(300, minutes * 60 / 4))
        let period = max(1, 1000 / rate)
        for id in ids {
            try commander.send("sample_period", "{\"period_ms\":\(period)}", to: id)
            try commander.send("start", "{}", to: id)
        }
        let began = ContinuousClock.now
        let loadBefore = MachineLoad.read()
        guard await poll(timeout: .seconds(60), until: { commander.everyForce(of: ids, since: began) }) else {
            throw BenchFailure("not every Activ5 streamed within a minute:\n\(bridge.outputText.suffix(3000))")
        }
        say("\(devices) Activ5s streaming at \(rate)/s; soaking for \(minutes) min")

        let end = began + .milliseconds(Int(minutes * 60_000))
        let streaming = ids
        let sender = Task {
            var index = 0
            while ContinuousClock.now < end - Self.grace, !Task.isCancelled {
                try? commander.send(
                    "sample_period", "{\"period_ms\":\(period)}", to: streaming[index % streaming.count])
                index += 1
                try? await Task.sleep(for: .seconds(1))
            }
        }
        var restarts = schedule(began: began)
        var nextSample = began
        var lastReport = began
        while ContinuousClock.now < end {
            if let exit = bridge.exit {
                figures.gatewayExitedEarly =
                    "\(exit) after \(String(format: "%.0f", (ContinuousClock.now - began).soakSeconds)) s"
                break
            }
            let now = ContinuousClock.now
            if now >= nextSample {
                if let usage = ProcessUsage.read(pid: bridge.processIdentifier) {
                    figures.memory.samples.append(
                        .init(
                            seconds: (now - began).soakSeconds, residentKilobytes: usage.residentKilobytes,
                            anonymousKilobytes: usage.anonymousKilobytes))
                }
                nextSample += Self.sampleInterval
            }
            if let (at, what) = restarts.first, now >= at {
                restarts.removeFirst()
                figures.restarts.append(await restart(what, world: world, commander: commander, ids: ids, began: began))
                try write(figures)
                continue
            }
            if now - lastReport >= .seconds(300) {
                lastReport = now
                say(
                    "\(String(format: "%.0f", (now - began).soakSeconds / 60)) min: \(commander.sent) commands sent, \(commander.unanswered) unanswered, RSS \(figures.memory.samples.last?.residentKilobytes ?? 0) KiB"
                )
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        sender.cancel()
        _ = await sender.value
        // The last commands' answers: a command to a connected device is answered in milliseconds.
        _ = await poll(timeout: Self.grace, until: { commander.unanswered == 0 })
        figures.measuredMinutes = (ContinuousClock.now - began).soakSeconds / 60
        if let loadBefore, let busy = MachineLoad.read()?.busyPercent(since: loadBefore) {
            figures.settings["machine busy"] = String(format: "%.0f %% of all cores over the run", busy)
        }
        figures.commandsSent = commander.sent
        figures.commandsAnswered = commander.answered
        figures.commandsLost = commander.unanswered
        figures.unexpectedAnswers = commander.unexpectedAnswers
        let answers = commander.answerSeconds.sorted()
        func percentile(_ fraction: Double) -> Double? {
            answers.isEmpty ? nil : answers[min(answers.count - 1, Int(Double(answers.count) * fraction))] * 1000
        }
        figures.answerP50Milliseconds = percentile(0.5)
        figures.answerP99Milliseconds = percentile(0.99)
        figures.answerMaxMilliseconds = answers.last.map { $0 * 1000 }
        figures.forcesReceived = commander.forces
        figures.lastHealth = commander.lastHealth
        figures.warnings = Self.warnings(in: bridge.lines.map(\.text))
        await commander.stop()
        _ = await bridge.terminate(grace: .seconds(10))
        try write(figures)
        say(
            "\(figures.commandsSent) commands, \(figures.commandsLost) lost; RSS \(figures.memory.samples.first?.residentKilobytes ?? 0) → \(figures.memory.samples.last?.residentKilobytes ?? 0) KiB, \(String(format: "%.0f", figures.memory.slopePerHour(from: figures.warmUpSeconds) { $0.residentKilobytes } ?? .nan)) KiB/h after warm-up"
        )
        say("wrote \(json) and the soak section of \(markdown)")
    }

    /// The restarts in order: the broker every `brokerRestartMinutes`, BlueZ every `bluezRestartMinutes`
    /// offset by half a broker interval, none in the last grace period.
    private func schedule(began: ContinuousClock.Instant) -> [(ContinuousClock.Instant, String)] {
        let total = minutes * 60 - Self.grace.soakSeconds
        var events: [(Double, String)] = []
        var at = brokerRestartMinutes * 60
        while at < total {
            events.append((at, "broker"))
            at += brokerRestartMinutes * 60
        }
        at = bluezRestartMinutes * 60 - brokerRestartMinutes * 30
        while at > 0, at < total {
            events.append((at, "BlueZ"))
            at += bluezRestartMinutes * 60
        }
        return events.sorted { $0.0 < $1.0 }.map { (began + .milliseconds(Int($0.0 * 1000)), $0.1) }
    }

    private func restart(
        _ what: String, world: TestWorld, commander: SoakCommander, ids: [String], began: ContinuousClock.Instant
    ) async -> SoakFigures.Restart {
        let start = ContinuousClock.now
        var failure: String?
        do {
            if what == "broker" { try await world.broker.restart() } else { try await world.restartBlueZ() }
        } catch {
            failure = "\(error)"
        }
        let back = await poll(timeout: .seconds(120), until: { commander.everyForce(of: ids, since: start) })
        let recovery = back ? (ContinuousClock.now - start).soakSeconds : nil
        say(
            "\(what) restarted\(failure.map { " (failed: \($0))" } ?? "") at \(String(format: "%.0f", (start - began).soakSeconds)) s: every stream back after \(recovery.map { String(format: "%.1f s", $0) } ?? "more than 120 s")"
        )
        return .init(what: what, at: (start - began).soakSeconds, recoverySeconds: recovery)
    }

    /// The gateway's warning, error and critical lines, counted by level, message (after the `[Module]`
    /// marker, which follows the metadata) and error code, so that a device's address or a reason's
    /// wording does not split one kind of line into many.
    static func warnings(in lines: [String]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in lines {
            guard let level = [" warning ", " error ", " critical "].first(where: { line.contains($0) }) else {
                continue
            }
            let message = line.range(of: "] ", options: .backwards).map { String(line[$0.upperBound...]) } ?? "?"
            let code = line.range(of: " code=").map { " (" + line[$0.upperBound...].prefix { $0 != " " } + ")" } ?? ""
            counts[level.trimmingCharacters(in: .whitespaces) + ": " + String(message.prefix(60)) + code, default: 0] +=
                1
        }
        return counts
    }

    private func write(_ figures: SoakFigures) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(figures).write(to: URL(fileURLWithPath: json))
        try ResultsSection(name: "soak").replace(in: markdown, with: figures.markdown())
    }

    /// Prints and flushes: an hour's run into a file or a pipe can be followed line by line.
    private func say(_ text: String) {
        print("soak: \(text)")
        fflush(nil)
    }
}
