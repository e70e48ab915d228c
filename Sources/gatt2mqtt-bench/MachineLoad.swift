import Foundation

/// The whole machine's CPU counters (the first line of /proc/stat, in clock ticks): whether the
/// simulated world itself used every core during a window, which is where its latency stops meaning
/// anything about the relay under test.
struct MachineLoad: Sendable {
    var busyTicks: UInt64
    var totalTicks: UInt64

    static func read() -> MachineLoad? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
        guard ticks.count >= 5 else { return nil }
        // user nice system idle iowait irq softirq steal (guest time is already in user).
        let counted = ticks.prefix(8)
        let total = counted.reduce(0, +)
        return MachineLoad(busyTicks: total - ticks[3] - ticks[4], totalTicks: total)
    }

    /// The share of all cores in use between `earlier` and `self`, in percent.
    func busyPercent(since earlier: MachineLoad) -> Double? {
        guard totalTicks > earlier.totalTicks else { return nil }
        return Double(busyTicks - earlier.busyTicks) / Double(totalTicks - earlier.totalTicks) * 100
    }
}
