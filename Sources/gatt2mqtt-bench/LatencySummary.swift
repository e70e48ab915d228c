/// p50, p99 and max of a set of latencies, in milliseconds; nil when there were none.
struct LatencySummary: Codable, Sendable {
    var count: Int
    var p50: Double?
    var p99: Double?
    var max: Double?

    init(nanoseconds samples: [Int64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func percentile(_ fraction: Double) -> Double? {
            guard !sorted.isEmpty else { return nil }
            // Nearest rank: the smallest sample with at least `fraction` of them at or below it.
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return Double(sorted[Swift.max(rank, 1) - 1]) / 1e6
        }
        p50 = percentile(0.50)
        p99 = percentile(0.99)
        max = percentile(1.0)
    }

    /// `p50 / p99 / max` for the table.
    var text: String {
        count == 0 ? "–" : "\(Self.format(p50)) / \(Self.format(p99)) / \(Self.format(max))"
    }

    static func format(_ milliseconds: Double?) -> String {
        guard let milliseconds else { return "–" }
        return String(format: milliseconds < 10 ? "%.2f" : "%.1f", milliseconds)
    }
}
