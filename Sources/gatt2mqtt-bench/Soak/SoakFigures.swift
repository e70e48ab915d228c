import Foundation

/// What a soak measured (SOAK.json) and its section of BENCHMARKS.md.
struct SoakFigures: Codable, Sendable {
    /// A restart of the broker or of BlueZ, and how long until every device's force came through again.
    struct Restart: Codable, Sendable {
        var what: String
        /// Seconds since the soak began.
        var at: Double
        /// Seconds from the restart until every device's force arrived again; nil if not within two minutes.
        var recoverySeconds: Double?
    }

    var date: String
    var machine: String
    var versions: [String: String]
    var settings: [String: String]
    var plannedMinutes: Double
    var measuredMinutes: Double = 0
    var devices: Int
    var rate: Int
    var commandsSent = 0
    /// Answers by outcome (`ok` or an error code).
    var commandsAnswered: [String: Int] = [:]
    /// Commands without any answer at the end, after the grace period.
    var commandsLost = 0
    var unexpectedAnswers = 0
    var answerP50Milliseconds: Double?
    var answerP99Milliseconds: Double?
    var answerMaxMilliseconds: Double?
    var forcesReceived = 0
    var restarts: [Restart] = []
    var memory = MemoryTrend()
    /// Seconds after which the memory samples count towards the steady-state slope.
    var warmUpSeconds: Double
    /// The gateway's last health report (its own counts of dropped messages and notifications).
    var lastHealth: String?
    /// The gateway's log lines at warning level and above, by message (a soak should have only the expected ones).
    var warnings: [String: Int] = [:]
    var gatewayExitedEarly: String?
    var failures: [String] = []

    /// Goals of issue #31: nothing lost, resident memory growing by less than 1 MB an hour.
    static let growthGoalKilobytesPerHour = 1000.0

    func markdown() -> String {
        func number(_ value: Double?, _ format: String = "%.0f") -> String {
            value.map { String(format: format, $0) } ?? "–"
        }
        let first = memory.samples.first
        let last = memory.samples.last
        let wholeRSS = memory.slopePerHour { $0.residentKilobytes }
        let steadyRSS = memory.slopePerHour(from: warmUpSeconds) { $0.residentKilobytes }
        let steadyAnon = memory.slopePerHour(from: warmUpSeconds) { $0.anonymousKilobytes }
        let answered = commandsAnswered.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(
            separator: ", ")
        let inProgress = measuredMinutes == 0
        var lines = [
            (inProgress ? "**In progress** (written at each restart; the figures so far). " : "")
                + "Run on \(date): \(machine); \(versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")).",
            "Settings: \(settings.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")).",
            "",
            "| | |",
            "|---|---|",
            "| Length | \(number(measuredMinutes, "%.1f")) min (planned \(number(plannedMinutes, "%.0f"))) |",
            "| Devices streaming | \(devices) Activ5s × \(rate)/s: \(forcesReceived) force values received |",
            "| Commands sent | \(commandsSent) (QoS 1, each with an answer topic of its own) |",
            "| Commands answered | \(answered.isEmpty ? "none" : answered) |",
            "| **Commands lost** | **\(commandsLost)** (no answer by the end); \(unexpectedAnswers) answers to no pending command |",
            "| Answer time | p50 \(number(answerP50Milliseconds, "%.1f")) ms, p99 \(number(answerP99Milliseconds, "%.1f")) ms, max \(number(answerMaxMilliseconds, "%.0f")) ms |",
            "| RSS at start, at end | \(first.map { "\($0.residentKilobytes) KiB" } ?? "–"), \(last.map { "\($0.residentKilobytes) KiB" } ?? "–") |",
            "| RSS slope, whole run | \(number(wholeRSS)) KiB/h |",
            "| **RSS slope after \(number(warmUpSeconds / 60)) min** | **\(number(steadyRSS)) KiB/h** (anonymous memory: \(number(steadyAnon)) KiB/h); goal under \(number(Self.growthGoalKilobytesPerHour)) KiB/h |",
        ]
        for kind in Set(restarts.map(\.what)).sorted() {
            let ofKind = restarts.filter { $0.what == kind }
            let times = ofKind.map { number($0.recoverySeconds, "%.1f") }.joined(separator: ", ")
            lines.append("| \(kind) restarts | \(ofKind.count); every device's force back after \(times) s |")
        }
        lines.append(
            "| Warnings in the gateway's log | \(warnings.isEmpty ? "none" : warnings.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value))" }.joined(separator: "; ")) |"
        )
        if let lastHealth { lines.append("| Last health report | `\(lastHealth)` |") }
        if let gatewayExitedEarly { lines.append("| **Gateway exited early** | \(gatewayExitedEarly) |") }
        for failure in failures { lines.append("| **Failure** | \(failure) |") }
        let lossOK = commandsLost == 0 && gatewayExitedEarly == nil
        let growthOK = steadyRSS.map { $0 < Self.growthGoalKilobytesPerHour } ?? false
        if inProgress { return lines.joined(separator: "\n") }
        lines += [
            "",
            "Goals: 0 commands lost — \(lossOK ? "met" : "**missed**"); RSS growth under 1 MB/h — \(growthOK ? "met" : "**missed**").",
        ]
        return lines.joined(separator: "\n")
    }
}

extension Duration {
    /// The duration in seconds, as a Double (the soak's figures).
    var soakSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
