import Foundation
import TestSupport

/// The fleet's gateways on one topology, and what the benchmark measures there. Gateway `gw-<i+1>`
/// (adapter `hci<i>`) hears belt `i` best, so it owns it once settled. Each measurement adds a row to
/// `rows` and its values to `figures`.
final class FleetRun {
    let world: TestWorld
    let topology: FleetTopology
    let ids: [String]
    let refresh: Duration
    private(set) var rows: [String] = []
    private(set) var figures: [String: Any] = [:]
    private let folder: String
    private let observer: FleetObserver
    private var gateways: [ManagedProcess] = []
    private var settled: ContinuousClock.Instant?
    private let begun = ContinuousClock.now
    /// Per belt, the windows in which it was cut off from part of the fleet (excluded from "outside a partition").
    private var partitions: [String: [Range<ContinuousClock.Instant>]] = [:]
    private var commandNumber = 0
    /// The gateway `ownerKilled` killed, which `killedGatewayRestarts` starts again.
    private var killed: Int?

    private var lease: Duration { refresh * 3 }
    private var devices: [String] { ids.map { "belt/\($0)" } }
    private func name(_ gateway: Int) -> String { "gw-\(gateway + 1)" }

    init(world: TestWorld, topology: FleetTopology, ids: [String], refresh: Duration, incarnations folder: String)
        async throws
    {
        self.world = world
        self.topology = topology
        self.ids = ids
        self.refresh = refresh
        self.folder = folder
        figures["refresh_s"] = refresh / .seconds(1)
        observer = try FleetObserver(url: topology.observed, protocolVersion: topology.protocolVersion)
        try await observer.start()
    }

    /// Every gateway started at once: how long until each belt has exactly one owner, and how many 5 R later.
    func coldStart() async throws {
        say("cold start: \(topology.brokers.count) gateways × \(ids.count) belts")
        let start = ContinuousClock.now
        for gateway in topology.brokers.indices { gateways.append(try await startGateway(gateway)) }
        while settled == nil, ContinuousClock.now - start < .seconds(120) {
            let now = ContinuousClock.now
            let events = observer.all
            if devices.allSatisfy({ FleetFigures.owners(of: $0, at: now, events: events, lease: lease).count == 1 }) {
                settled = now
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: refresh * 5)
        let events = observer.all
        let counts = devices.map { FleetFigures.owners(of: $0, at: .now, events: events, lease: lease).count }
        let settleSeconds = settled.map { ($0 - start) / .seconds(1) }
        figures["cold_start_settle_s"] = settleSeconds ?? -1
        figures["settled_owner_counts"] = counts
        row(
            "Cold start of \(gateways.count) gateways × \(ids.count) belts: every belt has one owner after",
            (settleSeconds.map { String(format: "%.1f s", $0) } ?? "not within 120 s")
                + " (the gateways' own start included)")
        row("Owners per belt 5 R later (goal: exactly 1)", counts.map(String.init).joined(separator: ", "))
    }

    /// Gateway `gateway` on its broker, with its own incarnation file (bumped at each start).
    private func startGateway(_ gateway: Int) async throws -> ManagedProcess {
        try await world.startBridge(
            gateway: name(gateway), adapters: ["hci\(gateway)"], broker: topology.brokers[gateway],
            extraArguments: (topology.defaultSettings
                ? [] : ["--fleet", "--fleet-refresh-seconds", "\(refresh / .seconds(1))"])
                + ["--fleet-incarnation-file", "\(folder)/\(name(gateway))"]
                + (topology.protocolVersion == .v311 ? ["--mqtt-version", "3.1.1"] : []))
    }

    /// Ten commands to each belt and ten to a belt no gateway has, each with a `transaction` its reply echoes.
    func repliesPerCommand() async throws {
        say("replies per command")
        var owned: [String] = []
        var nobody: [String] = []
        for _ in 0..<10 {
            for id in ids { owned.append(try command(id)) }
            nobody.append(try command("0000000000ff"))
        }
        try await Task.sleep(for: lease + .seconds(2))
        let events = observer.all
        let ownedCounts = FleetFigures.replies(to: owned, events: events)
        let nobodyCounts = FleetFigures.replies(to: nobody, events: events)
        figures["replies_per_command_owned"] = ownedCounts
        figures["replies_per_command_unowned"] = nobodyCounts
        row(
            "Replies per command to an owned belt (\(owned.count) commands; goal: exactly 1)",
            "min \(ownedCounts.min() ?? 0), max \(ownedCounts.max() ?? 0)")
        row(
            "Replies per command to a belt no gateway has (\(nobody.count) commands; goal: exactly 1, `not_connected`)",
            "min \(nobodyCounts.min() ?? 0), max \(nobodyCounts.max() ?? 0)")
    }

    private func command(_ id: String) throws -> String {
        commandNumber += 1
        let transaction = "bench-\(topology.key)-\(commandNumber)"
        try observer.publish("belt/\(id)/cmd/orientation", #"{"enabled":true,"transaction":"\#(transaction)"}"#)
        return transaction
    }

    /// RSSI noise on every belt at once, for `seconds` per σ: belt `i`'s owner hears it at −60 dBm, the next
    /// gateway 0, 8 or 15 dB weaker (one gap per belt), the third at −90 dBm; each with noise σ.
    func noise(seconds: Double) async throws {
        let gaps: [Int16] = [0, 8, 15]
        var noiseRows: [[String: Any]] = []
        for sigma in [4, 8] as [UInt8] {
            say("noise σ \(sigma) dB: \(Int(seconds)) s on every belt")
            for belt in ids.indices {
                try await hear(gateway: belt, belt: belt, -60, sigma: sigma)
                try await hear(gateway: (belt + 1) % ids.count, belt: belt, -60 - gaps[belt % gaps.count], sigma: sigma)
                try await hear(gateway: (belt + 2) % ids.count, belt: belt, -90, sigma: sigma)
            }
            let start = ContinuousClock.now
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            let events = observer.all
            for belt in ids.indices {
                let changes = FleetFigures.ownerChanges(
                    topic: "belt/\(ids[belt])/owner", from: start, to: .now, events: events)
                let gap = gaps[belt % gaps.count]
                noiseRows.append([
                    "sigma_db": Int(sigma), "gap_db": Int(gap), "seconds": seconds, "changes": changes,
                    "per_device_hour": Double(changes) / (seconds / 3600),
                ])
                // A rate per device-hour is shown for what was seen, never extrapolated from none.
                let seen =
                    changes == 0
                    ? "0 in \(Int(seconds)) s"
                    : "\(changes) in \(Int(seconds)) s (\(Int((Double(changes) * 3600 / seconds).rounded())) per device-hour)"
                row("Ownership changes under noise, σ \(sigma) dB, mean gap \(gap) dB (goal: 0)", seen)
            }
        }
        figures["noise"] = noiseRows
        let total = noiseRows.reduce(0) { $0 + ($1["changes"] as? Int ?? 0) }
        let deviceHours = Double(noiseRows.count) * seconds / 3600
        figures["noise_changes_per_device_hour"] = Double(total) / deviceHours
        row(
            "Ownership changes under noise, every setting together (goal: 0 per device-hour)",
            String(format: "%d in %.2f device-hours", total, deviceHours))
        try await hearDefaults()
    }

    /// A +20 dB step: gw-3 comes to hear belt 1 (owned by gw-2) 20 dB better than its owner does.
    func step() async throws {
        say("+20 dB step")
        let (seconds, gap) = try await handOver(of: ids[1], to: { $0 == "gw-3" }) {
            try await self.hear(gateway: 2, belt: 1, -30)
        }
        figures["step_handover_s"] = seconds ?? -1
        figures["step_data_gap_s"] = gap
        row(
            "Hand-over after a +20 dB step: the new owner publishes `owner` after",
            (seconds.map { String(format: "%.1f s", $0) } ?? "not within 90 s")
                + String(format: "; longest heading gap %.1f s", gap))
    }

    /// The owner of belt `belt` dies without a goodbye (SIGKILL).
    func ownerKilled(belt: Int) async throws {
        let events = observer.all
        guard let owner = FleetFigures.owners(of: devices[belt], at: .now, events: events, lease: lease).first,
            let index = (0..<gateways.count).first(where: { name($0) == owner })
        else { throw BenchFailure("belt \(ids[belt]) has no owner to kill") }
        say("SIGKILL of \(owner), the owner of belt \(belt + 1)")
        killed = index
        let (seconds, gap) = try await handOver(of: ids[belt], to: { $0 != owner }) {
            self.gateways[index].send(SIGKILL)
        }
        figures["sigkill_takeover_s"] = seconds ?? -1
        figures["sigkill_data_gap_s"] = gap
        row(
            "Owner SIGKILLed: another gateway publishes `owner` after",
            (seconds.map { String(format: "%.1f s", $0) } ?? "not within 90 s")
                + String(format: "; heading gap %.1f s", gap))
    }

    /// The killed gateway starts again, a new incarnation: it listens 4.5 R before it takes anything, and
    /// then nothing moves, since every owner keeps its belts while its claims arrive.
    func killedGatewayRestarts() async throws {
        guard let index = killed else { return }
        say("\(name(index)) restarts")
        let start = ContinuousClock.now
        gateways[index] = try await startGateway(index)
        try await Task.sleep(for: refresh * 10)
        let events = observer.all
        let changes = devices.map {
            FleetFigures.ownerChanges(topic: "\($0)/owner", from: start, to: .now, events: events)
        }.reduce(0, +)
        let heard = events.contains { $0.at >= start && FleetFigures.claim($0.topic)?.0 == name(index) }
        figures["restart_owner_changes"] = changes
        row(
            "The SIGKILLed gateway restarted: ownership changes in the 10 R after (goal: 0)",
            "\(changes)" + (heard ? ", its claims heard again" : " (its claims were not heard)"))
    }

    /// The last gateway's broker dies (SIGKILL: its clients' wills are never published), which cuts that
    /// gateway, the owner of the last belt, off from the rest of the fleet. The others take the belt over
    /// once its claims have lapsed; the cut-off owner keeps its link, not knowing. After a lease more the
    /// broker returns, and the two owners meet: the older term lets go.
    func brokerDeath() async throws {
        guard let kill = topology.killLastGatewaysBroker, let restore = topology.restoreLastGatewaysBroker else {
            return
        }
        let last = gateways.count - 1
        let belt = ids[last]
        say("death of \(name(last))'s broker")
        let cut = ContinuousClock.now
        let (seconds, gap) = try await handOver(of: belt, to: { $0 != self.name(last) }) { await kill() }
        try await Task.sleep(for: lease)
        say("\(name(last))'s broker returns")
        let heal = ContinuousClock.now
        let mark = gateways[last].lineCount
        try await restore()
        let letGo = try? await gateways[last].waitForLine(
            containing: "lostConflict", after: mark, timeout: .seconds(90))
        let released = ContinuousClock.now
        let healWindow = heal..<(released + lease)
        try await Task.sleep(until: healWindow.upperBound, clock: .continuous)
        let events = observer.all
        let firstBack = FleetFigures.claims(of: "belt/\(belt)", events: events).first {
            $0.gateway == name(last) && $0.at >= heal
        }
        let seenDouble = FleetFigures.doubleOwnership(
            of: "belt/\(belt)", in: [healWindow], events: events, lease: lease)
        partitions[belt, default: []].append(cut..<healWindow.upperBound)
        let takeover = seconds.map { cut + .milliseconds(Int($0 * 1000)) }
        let bothHeld =
            firstBack?.state == "owner" && letGo != nil ? takeover.map { (released - $0) / .seconds(1) } : nil
        figures["broker_death_takeover_s"] = seconds ?? -1
        figures["broker_death_data_gap_s"] = gap
        figures["partition_both_held_s"] = bothHeld ?? -1
        figures["partition_heal_double_ownership_seen_s"] = seenDouble
        figures["partition_heal_resolved"] = letGo != nil
        row(
            "Owner's broker killed: a gateway on another broker publishes `owner` after",
            (seconds.map { String(format: "%.1f s", $0) } ?? "not within 90 s")
                + String(format: "; heading gap %.1f s", gap))
        row(
            "The partition: both gateways held the belt (the cut-off owner keeps its link) for",
            bothHeld.map { String(format: "%.1f s, from the takeover until the cut-off owner, back, let go", $0) }
                ?? "not seen (the cut-off owner came back as \(firstBack?.state ?? "nothing"))")
        row(
            "After the heal, two `owner` claims seen on the broker for (goal: a refresh or two)",
            String(format: "%.1f s", seenDouble) + (letGo == nil ? " (the older owner did not let go within 90 s)" : "")
        )
    }

    /// Double ownership over the whole run, from the cold start's settling on, outside the partitions.
    func doubleOwnershipOutsidePartitions() {
        let end = ContinuousClock.now
        let from = settled ?? begun
        let events = observer.all
        let seconds = devices.indices.map { belt in
            FleetFigures.doubleOwnership(
                of: devices[belt], in: Self.windows(from: from, to: end, excluding: partitions[ids[belt]] ?? []),
                events: events, lease: lease)
        }
        figures["double_ownership_s"] = seconds
        let excluded = partitions.isEmpty ? "" : ", outside the partition"
        rows.insert(
            "| Seconds of double ownership over the run (\(Int((end - from) / .seconds(1))) s\(excluded), per belt; goal: 0) | "
                + "\(seconds.map { String(format: "%.1f", $0) }.joined(separator: ", ")) |", at: min(2, rows.count))
    }

    /// `from..<to` without the `excluded` windows.
    static func windows(
        from: ContinuousClock.Instant, to: ContinuousClock.Instant, excluding excluded: [Range<ContinuousClock.Instant>]
    ) -> [Range<ContinuousClock.Instant>] {
        var result: [Range<ContinuousClock.Instant>] = []
        var start = from
        for window in excluded.sorted(by: { $0.lowerBound < $1.lowerBound }) where window.upperBound > start {
            if window.lowerBound > start { result.append(start..<min(window.lowerBound, to)) }
            start = max(start, window.upperBound)
        }
        if start < to { result.append(start..<to) }
        return result
    }

    /// Stops the gateways (and the observer); the topology's brokers are the caller's.
    func stop() async {
        for gateway in gateways where gateway.isRunning { _ = await gateway.terminate() }
        await observer.stop()
    }

    /// Does `cause`, then waits (up to 90 s) for belt `id`'s `owner` to name a gateway `accepted` takes.
    /// Returns the seconds that took (nil when it did not happen) and the belt's longest heading gap from
    /// the cause to 5 s after.
    private func handOver(
        of id: String, to accepted: @escaping (String) -> Bool, cause: () async throws -> Void
    ) async throws -> (seconds: Double?, gap: Double) {
        let start = ContinuousClock.now
        try await cause()
        let taken = await observer.wait(since: start, timeout: .seconds(90)) {
            $0.topic == "belt/\(id)/owner" && accepted($0.payload)
        }
        try await Task.sleep(for: .seconds(5))
        let gap = FleetFigures.longestGap(topic: "belt/\(id)/heading", from: start, to: .now, events: observer.all)
        return (taken.map { ($0.at - start) / .seconds(1) }, gap / .seconds(1))
    }

    /// Adapter `hci<gateway>` hears belt `belt` (on adapter `hci<gateways + belt>`) at `mean` dBm ± `sigma`.
    func hear(gateway: Int, belt: Int, _ mean: Int16, sigma: UInt8 = 0) async throws {
        try await world.setSignal(adapter: gateway, device: topology.brokers.count + belt, mean: mean, sigma: sigma)
    }

    /// Each gateway hears "its" belt best (−50 dBm) and the others at −70 dBm.
    func hearDefaults() async throws {
        for gateway in topology.brokers.indices {
            for belt in ids.indices { try await hear(gateway: gateway, belt: belt, gateway == belt ? -50 : -70) }
        }
    }

    private func row(_ measure: String, _ result: String) { rows.append("| \(measure) | \(result) |") }

    private func say(_ text: String) { FleetBench.say("\(topology.key): \(text)") }
}
