import Foundation

/// Everything one benchmark run measured: the raw JSON beside BENCHMARKS.md, and the table in it.
struct BenchReport: Codable, Sendable {
    struct Row: Codable, Sendable {
        var devices: Int
        var rate: Int
        var mqttFloor: PhaseFigures?
        var dbusFloor: PhaseFigures?
        var gatt2mqtt: PhaseFigures?
        var peer: PhaseFigures?
        var startup: ProcessRelay.Startup?
        var failures: [String] = []

        var offeredPerSecond: Int { devices * rate }

        /// The notification floor: D-Bus hop plus MQTT hop, at p99.
        var notificationFloorP99: Double? {
            guard let dbus = dbusFloor?.notificationLatency.p99, let mqtt = mqttFloor?.notificationLatency.p99 else {
                return nil
            }
            return dbus + mqtt
        }

        /// The command floor: a direct WriteValue plus the MQTT hop, at p99.
        var commandFloorP99: Double? {
            guard let dbus = dbusFloor?.commandLatency.p99, let mqtt = mqttFloor?.notificationLatency.p99 else {
                return nil
            }
            return dbus + mqtt
        }
    }

    /// One family's stream at one rate: the floor relay, gatt2mqtt and the Python relay (`FamilyBench`).
    struct FamilyRow: Codable, Sendable {
        var family: BenchFamily
        var devices: Int
        var rate: Int
        var floorRelay: PhaseFigures?
        var gatt2mqtt: PhaseFigures?
        var peer: PhaseFigures?
        var failures: [String] = []

        var cpuOverFloor: Double? {
            BenchReport.ratio(gatt2mqtt?.cpuMillisecondsPer1000, floorRelay?.cpuMillisecondsPer1000)
        }
        var cpuOverPeer: Double? { BenchReport.ratio(gatt2mqtt?.cpuMillisecondsPer1000, peer?.cpuMillisecondsPer1000) }
        var p99OverFloor: Double? {
            BenchReport.ratio(gatt2mqtt?.notificationLatency.p99, floorRelay?.notificationLatency.p99)
        }
    }

    var date: String
    var machine: String
    var versions: [String: String]
    var settings: [String: String]
    var rows: [Row]
    /// Instructions per message in one row, under callgrind.
    var instructions: InstructionCount? = nil
    /// Every family's stream beside the floor relay and the Python relay.
    var families: [FamilyRow] = []
    /// Every family's stream with gatt2mqtt under callgrind.
    var familyInstructions: [FamilyInstructionRow] = []

    // MARK: Ratios (the goals of BENCHMARKS.md)

    static func ratio(_ value: Double?, _ reference: Double?) -> Double? {
        guard let value, let reference, reference > 0, value.isFinite, reference.isFinite else { return nil }
        return value / reference
    }

    /// RSS growth per device between the smallest and the largest device count, at the lowest rate.
    var residentGrowthPerDeviceKilobytes: Double? {
        let lowest = rows.map(\.rate).min()
        let measured = rows.filter { $0.rate == lowest }.compactMap { row in
            row.gatt2mqtt?.residentKilobytes.map { (row.devices, $0) }
        }
        guard let first = measured.min(by: { $0.0 < $1.0 }), let last = measured.max(by: { $0.0 < $1.0 }),
            last.0 > first.0
        else {
            return nil
        }
        return Double(last.1 - first.1) / Double(last.0 - first.0)
    }

    // MARK: Markdown

    func markdown() -> String {
        func ms(_ value: Double?) -> String { LatencySummary.format(value) }
        func times(_ value: Double?) -> String { value.map { String(format: "%.2f×", $0) } ?? "–" }
        func loss(_ figures: PhaseFigures?) -> String {
            guard let figures else { return "–" }
            return "\(figures.lost) of \(figures.sent)"
        }
        var text = """
            ## Run of \(date)

            Machine: \(machine)

            \(versions.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: " · "))

            Settings: \(settings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))

            ### Notification → MQTT (ms, p50 / p99 / max) and loss

            | Devices × rate | Offered/s | D-Bus floor | MQTT floor | Floor p99 (sum) | gatt2mqtt | gatt2mqtt p99 ÷ floor | same values on the bus, gatt2mqtt phase | Python relay | gatt2mqtt lost | Python relay lost | D-Bus floor lost |
            |---|---:|---|---|---:|---|---:|---|---|---:|---:|---:|

            """
        for row in rows {
            text +=
                "| \(row.devices) × \(row.rate)/s | \(row.offeredPerSecond) | \(row.dbusFloor?.notificationLatency.text ?? "–") | "
            text += "\(row.mqttFloor?.notificationLatency.text ?? "–") | \(ms(row.notificationFloorP99)) | "
            text += "\(row.gatt2mqtt?.notificationLatency.text ?? "–") | "
            text += "\(times(Self.ratio(row.gatt2mqtt?.notificationLatency.p99, row.notificationFloorP99))) | "
            text += "\(row.gatt2mqtt?.busLatency?.text ?? "–") | "
            text +=
                "\(row.peer?.notificationLatency.text ?? "–") | \(loss(row.gatt2mqtt)) | \(loss(row.peer)) | \(loss(row.dbusFloor)) |\n"
        }
        text += """

            ### Command → GATT write (ms, p50 / p99 / max)

            | Devices × rate | D-Bus floor (WriteValue) | Floor p99 (+ MQTT hop) | gatt2mqtt | gatt2mqtt p99 ÷ floor | Python relay |
            |---|---|---:|---|---:|---|

            """
        for row in rows {
            text +=
                "| \(row.devices) × \(row.rate)/s | \(row.dbusFloor?.commandLatency.text ?? "–") | \(ms(row.commandFloorP99)) | "
            text += "\(row.gatt2mqtt?.commandLatency.text ?? "–") | "
            text += "\(times(Self.ratio(row.gatt2mqtt?.commandLatency.p99, row.commandFloorP99))) | "
            text += "\(row.peer?.commandLatency.text ?? "–") |\n"
        }
        text += """

            ### CPU, memory, throughput, start

            | Devices × rate | gatt2mqtt CPU ms / 1 000 msgs | Python relay CPU ms / 1 000 msgs | gatt2mqtt ÷ Python | gatt2mqtt RSS (anonymous) | Python relay RSS (anonymous) | Delivered/s gatt2mqtt / Python / D-Bus floor | gatt2mqtt first publish / all devices ready |
            |---|---:|---:|---:|---:|---:|---|---|

            """
        for row in rows {
            func cpu(_ figures: PhaseFigures?) -> String {
                figures?.cpuMillisecondsPer1000.map { String(format: "%.1f", $0) } ?? "–"
            }
            func rss(_ figures: PhaseFigures?) -> String {
                guard let figures, let resident = figures.residentKilobytes else { return "–" }
                let own = figures.anonymousKilobytes.map { String(format: " (%.1f)", Double($0) / 1024) } ?? ""
                return String(format: "%.1f MiB", Double(resident) / 1024) + own
            }
            func rate(_ figures: PhaseFigures?) -> String {
                figures.map { String(format: "%.0f", $0.receivedPerSecond) } ?? "–"
            }
            let startup =
                row.startup.map {
                    String(format: "%.0f ms / %.0f ms", $0.firstPublishMilliseconds, $0.devicesReadyMilliseconds)
                } ?? "–"
            text += "| \(row.devices) × \(row.rate)/s | \(cpu(row.gatt2mqtt)) | \(cpu(row.peer)) | "
            text += "\(times(Self.ratio(row.gatt2mqtt?.cpuMillisecondsPer1000, row.peer?.cpuMillisecondsPer1000))) | "
            text +=
                "\(rss(row.gatt2mqtt)) | \(rss(row.peer)) | \(rate(row.gatt2mqtt)) / \(rate(row.peer)) / \(rate(row.dbusFloor)) | \(startup) |\n"
        }
        if let growth = residentGrowthPerDeviceKilobytes {
            text += "\ngatt2mqtt RSS growth per device: \(String(format: "%.0f", growth)) KiB.\n"
        }
        text += """

            ### Load during each window

            The machine's CPU in use (all cores, the simulated world and the benchmark included), the relay
            process's own share of one core, and how long its threads were ready to run but waited for a core
            (schedstat), per 1 000 messages. Near 100 % busy the world itself is the bottleneck.

            | Devices × rate | machine busy: D-Bus floor / gatt2mqtt / Python relay phase | relay's share of one core: gatt2mqtt / Python | waited for a core, ms / 1 000 msgs: gatt2mqtt / Python |
            |---|---|---|---|

            """
        for row in rows {
            func percent(_ value: Double?) -> String { value.map { String(format: "%.0f %%", $0) } ?? "–" }
            func milliseconds(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "–" }
            text += "| \(row.devices) × \(row.rate)/s | \(percent(row.dbusFloor?.machineBusyPercent)) / "
            text += "\(percent(row.gatt2mqtt?.machineBusyPercent)) / \(percent(row.peer?.machineBusyPercent)) | "
            text += "\(percent(row.gatt2mqtt?.relayCorePercent)) / \(percent(row.peer?.relayCorePercent)) | "
            text +=
                "\(milliseconds(row.gatt2mqtt?.waitMillisecondsPer1000)) / \(milliseconds(row.peer?.waitMillisecondsPer1000)) |\n"
        }
        if let instructions { text += instructions.markdown() }
        text += familiesMarkdown()
        text += FamilyInstructionRow.markdown(familyInstructions)
        let failures =
            rows.flatMap { row in row.failures.map { "- \(row.devices) × \(row.rate)/s: \($0)" } }
            + families.flatMap { row in
                row.failures.map { "- \(row.family.streamName), \(row.devices) × \(row.rate)/s: \($0)" }
            }
        if !failures.isEmpty { text += "\nFailures:\n" + failures.joined(separator: "\n") + "\n" }
        return text
    }
}

extension BenchReport {
    /// The family table: each stream's cost and latency beside the floor relay's and the Python relay's.
    func familiesMarkdown() -> String {
        guard !families.isEmpty else { return "" }
        func times(_ value: Double?) -> String { value.map { String(format: "%.2f×", $0) } ?? "–" }
        func cpu(_ figures: PhaseFigures?) -> String {
            figures?.cpuMillisecondsPer1000.map { String(format: "%.1f", $0) } ?? "–"
        }
        func lost(_ figures: PhaseFigures?) -> String { figures.map { "\($0.lost) of \($0.sent)" } ?? "–" }
        func rss(_ figures: PhaseFigures?) -> String {
            figures?.residentKilobytes.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "–"
        }
        var text = """

            ### Every family's stream: gatt2mqtt beside the floor relay and the Python relay

            The floor relay (`gatt2mqtt-bench floor-relay`) is the least a central can do end to end: read the
            acquired socket, format the value as gatt2mqtt does, `mosquitto_publish`. CPU is per 1 000 values
            delivered (gatt2mqtt's CPR-band rows also publish `stats` with every peak). Goals: CPU ≤ 1.3× the floor
            relay's and ≤ 0.3× the Python relay's at 200/s; p99 ≤ 1.2× the floor relay's up to 50/s.

            | Stream | Devices × rate | CPU ms / 1 000: floor relay / gatt2mqtt / Python | gatt2mqtt ÷ floor | gatt2mqtt ÷ Python | p50 / p99 / max ms: floor relay | gatt2mqtt | Python | gatt2mqtt p99 ÷ floor | lost: floor / gatt2mqtt / Python | RSS gatt2mqtt / Python |
            |---|---|---|---:|---:|---|---|---|---:|---|---|

            """
        for row in families {
            text +=
                "| \(row.family.streamName) | \(row.devices) × \(row.rate)/s | \(cpu(row.floorRelay)) / \(cpu(row.gatt2mqtt)) / \(cpu(row.peer)) | "
            text += "\(times(row.cpuOverFloor)) | \(times(row.cpuOverPeer)) | "
            text +=
                "\(row.floorRelay?.notificationLatency.text ?? "–") | \(row.gatt2mqtt?.notificationLatency.text ?? "–") | \(row.peer?.notificationLatency.text ?? "–") | "
            text +=
                "\(times(row.p99OverFloor)) | \(lost(row.floorRelay)) / \(lost(row.gatt2mqtt)) / \(lost(row.peer)) | \(rss(row.gatt2mqtt)) / \(rss(row.peer)) |\n"
        }
        return text
    }
}
