/// What one fleet size on one broker came to, and how it reads in the table of docs/fleet-benchmark.md.
struct ScaleFigures: Sendable {
    var topology: ScaleTopology
    var broker: String
    var refreshSeconds: Double
    /// From the gateways' start until every device had exactly one owner (claims seen by the observer).
    var coldStartSeconds: Double?
    /// Owners per device at the end of the rest window: the fewest and the most.
    var ownersAtRest: (min: Int, max: Int)
    var rest: FleetTraffic.Rates
    /// Publishes the broker sent and received per second at rest (its `$SYS` counters; nil where it has none).
    var brokerSentAtRest: Double?
    var brokerReceivedAtRest: Double?
    /// The gateways' process's CPU at rest, as a share of one core, for all of them.
    var cpuAtRest: Double
    var takeOver: FleetTraffic.Rates
    var brokerSentInTakeOver: Double?
    var cpuInTakeOver: Double
    /// From a kill until the broker's will reached the observer, one per kill.
    var willDelays: [Double]
    /// Per device of the killed owners: from the will's arrival, and from the kill, until another gateway said `owner`.
    var afterWill: LatencySummary
    var afterKill: LatencySummary
    /// Devices of a killed owner that nobody took within the wait.
    var untaken: Int

    var gateways: Int { topology.gateways }
    var devices: Int { topology.devices }

    var json: [String: Any] {
        var figures: [String: Any] = [
            "gateways": gateways, "devices": devices, "reach": topology.reach.rawValue,
            "hearers_per_device": topology.hearersPerDevice, "broker": broker, "refresh_s": refreshSeconds,
            "owners_per_device_at_rest": [ownersAtRest.min, ownersAtRest.max],
            "rest": Self.json(rest), "take_over": Self.json(takeOver),
            "cpu_share_of_a_core_at_rest": cpuAtRest, "cpu_share_of_a_core_in_take_over": cpuInTakeOver,
            "will_delays_s": willDelays, "untaken_devices": untaken,
            "take_over_after_will_ms": Self.json(afterWill), "take_over_after_kill_ms": Self.json(afterKill),
        ]
        if let coldStartSeconds { figures["cold_start_s"] = coldStartSeconds }
        if let brokerSentAtRest { figures["broker_publishes_sent_per_s_at_rest"] = brokerSentAtRest }
        if let brokerReceivedAtRest { figures["broker_publishes_received_per_s_at_rest"] = brokerReceivedAtRest }
        if let brokerSentInTakeOver { figures["broker_publishes_sent_per_s_in_take_over"] = brokerSentInTakeOver }
        return figures
    }

    private static func json(_ rates: FleetTraffic.Rates) -> [String: Any] {
        var figures: [String: Any] = ["window_s": rates.seconds]
        for (kind, rate) in rates.perSecond { figures["\(kind.rawValue)_per_s"] = rate }
        return figures
    }

    private static func json(_ summary: LatencySummary) -> [String: Any] {
        var figures: [String: Any] = ["count": summary.count]
        if let p50 = summary.p50 { figures["p50"] = p50 }
        if let p99 = summary.p99 { figures["p99"] = p99 }
        if let max = summary.max { figures["max"] = max }
        return figures
    }

    /// The table's rows, one measure each, one column per run of `runs`.
    static func table(_ runs: [ScaleFigures]) -> String {
        func row(_ measure: String, _ value: (ScaleFigures) -> String) -> String {
            "| \(measure) | " + runs.map(value).joined(separator: " | ") + " |"
        }
        func rate(_ value: Double) -> String {
            value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
        }
        func small(_ value: Double) -> String { String(format: value >= 1 ? "%.2f" : "%.3f", value) }
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.1f s", $0) } ?? "not reached" }
        func percent(_ share: Double) -> String { String(format: "%.1f %%", share * 100) }
        let header =
            "| Measure | " + runs.map { "\($0.gateways) gw × \($0.devices) dev" }.joined(separator: " | ") + " |"
        let rule = "|---|" + runs.map { _ in "---|" }.joined()
        let rows = [
            row("Gateways hearing each device") { "\($0.topology.hearersPerDevice)" },
            row("Cold start: every device has one owner after") { seconds($0.coldStartSeconds) },
            row("Owners per device at rest (min–max; goal 1–1)") { "\($0.ownersAtRest.min)–\($0.ownersAtRest.max)" },
            row("At rest: claims /s") { rate($0.rest.claims) },
            row("At rest: heartbeats /s") { rate($0.rest.heartbeats) },
            row("At rest: fleet messages /s per device") { small($0.rest.fleet / Double($0.devices)) },
            row("At rest: fleet messages /s per gateway") { small($0.rest.fleet / Double($0.gateways)) },
            row("At rest: publishes the broker sent /s (every subscriber's copy)") {
                $0.brokerSentAtRest.map(rate) ?? "–"
            },
            row("At rest: … per device") { figures in
                figures.brokerSentAtRest.map { small($0 / Double(figures.devices)) } ?? "–"
            },
            row("In a take-over (first R after the kill): fleet messages /s") { rate($0.takeOver.fleet) },
            row("In a take-over: publishes the broker sent /s") { $0.brokerSentInTakeOver.map(rate) ?? "–" },
            row("Gateways' CPU at rest, all of them (share of one core)") { percent($0.cpuAtRest) },
            row("Gateways' CPU at rest, per gateway") { percent($0.cpuAtRest / Double($0.gateways)) },
            row("Gateways' CPU in a take-over, per gateway") { percent($0.cpuInTakeOver / Double($0.gateways)) },
            row("Kill → will at the observer") {
                $0.willDelays.map { String(format: "%.2f s", $0) }.joined(separator: ", ")
            },
            row("Take-over after the will, p50 / p99 / max (ms; goal < 1000)") { $0.afterWill.text },
            row("Take-over after the kill, p50 / p99 / max (ms)") { $0.afterKill.text },
            row("Devices handed over (taken / not taken in 45 s)") { "\($0.afterKill.count) / \($0.untaken)" },
        ]
        return ([header, rule] + rows).joined(separator: "\n")
    }
}
