import Fleet
import TestSupport
import Testing

/// Whole fleets in a discrete-event simulation (see `FleetSimulation`): 2–5 gateways × 1–8
/// devices, claims delayed 0–20 s (two refresh intervals) and so reordered, lost at random, RSSI
/// noise σ 4 or 8 dB around means 0, 8 or 15 dB apart, kills, restarts, partitions, dropped links
/// and failed connects, forged claims (any gateway's name or a stranger's, up to the codec's largest numbers) and
/// replayed ones; then quiet. Every failure message starts with the seed that reproduces it.
// Serialized: the simulations are pure CPU, and in parallel they would take both cores from the
// suites that start processes and wait on them. Each runs on a thread of its own (`onOwnThread`), not on the
// cooperative pool, whose two threads every other test's tasks need.
@Suite("Fleet simulation properties", .serialized)
struct FleetPropertyTests {
    /// 200 seeds in 8 batches, each a test case of its own.
    static let batches = Array(0..<8)
    static let seedsPerBatch: UInt64 = 25
    static let settleSeconds: Int64 = 300

    @Test(
        "after chaos then a quiet settle window: never two owners, every device owned, no flapping",
        arguments: batches
    )
    func chaoticFleetsSettle(batch: Int) async {
        var counts: [String: Int] = [:]
        var deviceHours = 0.0
        var changes = 0
        var longestOwnerless: Int64 = 0
        var slowestCalm: Int64 = 0
        let first = UInt64(batch) * Self.seedsPerBatch + 1
        let reports = await onOwnThread {
            (first..<(first + Self.seedsPerBatch)).map { seed in
                FleetSimulation.report(
                    .chaotic(seed: seed, chaosSeconds: 420, settleSeconds: Self.settleSeconds, measureSeconds: 180))
            }
        }
        for report in reports {
            #expect(
                report.violations.isEmpty,
                """
                \(report.scenario)
                \(report.violations.joined(separator: "\n"))
                changes after the chaos: \(report.changesAfterChaos.joined(separator: "; "))
                """
            )
            for (name, value) in report.counts { counts[name, default: 0] += value }
            deviceHours += report.deviceHours
            changes += report.ownerChangesAfterSettle
            longestOwnerless = max(longestOwnerless, report.longestOwnerlessNanoseconds)
            slowestCalm = max(slowestCalm, report.calmedAfterSeconds)
        }
        // The chaos must actually have exercised the rules, or the properties above prove little.
        for rule in [
            "takeovers", "conflicts lost", "hand-overs", "kills", "stale claims dropped", "own claims seen",
            "broker outages", "gateways gone for good", "forged claims", "replayed claims",
        ] {
            #expect(counts[rule, default: 0] > 0, "seeds \(first)...: the simulation never produced \(rule)")
        }
        print(
            "fleet batch \(batch): \(String(format1: deviceHours)) device-hours measured, \(changes) owner changes "
                + "after settling, longest ownerless \(longestOwnerless / 1_000_000_000) s, "
                + "last change \(slowestCalm) s into the \(Self.settleSeconds) s settle window, \(counts.sorted { $0.key < $1.key })"
        )
    }

    @Test(
        "noise never moves a device away from its owner when no other gateway is stronger by more than the margin",
        arguments: [(4.0, 0), (4.0, 8), (4.0, 15), (8.0, 0), (8.0, 8), (8.0, 12)] as [(Double, Int)]
    )
    func noiseDoesNotMoveOwnership(sigma: Double, gap: Int) async {
        // The weaker gateway starts first and owns every device when the stronger one arrives:
        // the case where noise could tempt a hand-over. Changes are counted per device-hour.
        let scenario = FleetScenario.calm(
            seed: UInt64(sigma) * 100 + UInt64(gap),
            gateways: 2,
            devices: 4,
            sigma: sigma,
            gap: gap,
            measureSeconds: 2 * 3600
        )
        #expect(gap <= scenario.stableMargin)
        let report = await onOwnThread { FleetSimulation.report(scenario) }
        #expect(report.violations.isEmpty, "\(scenario)\n\(report.violations.joined(separator: "\n"))")
        #expect(report.gatewaysAlive == scenario.gatewayCount, "\(scenario): a gateway never started")
        // One takeover per device, by the first gateway, and nothing after: no change at all.
        #expect(report.counts["takeovers"] == scenario.deviceCount, "\(scenario): \(report.counts)")
        let perDeviceHour = Double(report.ownerChangesAfterSettle) / report.deviceHours
        #expect(
            perDeviceHour == 0,
            "\(scenario): \(report.ownerChangesAfterSettle) changes in \(report.deviceHours) device-hours"
        )
    }

    @Test("at σ 8 dB and a 15 dB gap, noise may move a device once to the stronger gateway, never back")
    func noiseNearHysteresisDoesNotFlap() async {
        let scenario = FleetScenario.calm(
            seed: 815, gateways: 2, devices: 4, sigma: 8, gap: 15, measureSeconds: 3 * 3600)
        let report = await onOwnThread { FleetSimulation.report(scenario) }
        // The simulation flags any move to a gateway that is not stronger (see `record`).
        #expect(report.violations.isEmpty, "\(scenario)\n\(report.violations.joined(separator: "\n"))")
        #expect(report.gatewaysAlive == scenario.gatewayCount, "\(scenario): a gateway never started")
        #expect(report.counts["hand-overs", default: 0] <= scenario.deviceCount, "\(scenario): \(report.counts)")
    }

    @Test(
        "a gateway stronger by well over the hysteresis takes over once and keeps the device",
        arguments: [(4.0, 20), (8.0, 24)] as [(Double, Int)]
    )
    func realAdvantageMovesOnce(sigma: Double, gap: Int) async {
        let scenario = FleetScenario.calm(
            seed: UInt64(sigma) * 100 + UInt64(gap),
            gateways: 2,
            devices: 4,
            sigma: sigma,
            gap: gap,
            measureSeconds: 3600
        )
        let report = await onOwnThread { FleetSimulation.report(scenario) }
        #expect(report.violations.isEmpty, "\(scenario)\n\(report.violations.joined(separator: "\n"))")
        #expect(report.gatewaysAlive == scenario.gatewayCount, "\(scenario): a gateway never started")
        // Each device: taken by the weaker gateway, handed over to the stronger one, never back.
        #expect(report.counts["hand-overs"] == scenario.deviceCount, "\(scenario): \(report.counts)")
        #expect(report.counts["takeovers"] == 2 * scenario.deviceCount, "\(scenario): \(report.counts)")
    }
}

extension String {
    /// A number with one decimal, without Foundation's formatting.
    init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
