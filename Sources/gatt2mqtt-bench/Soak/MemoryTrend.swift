/// The soak's memory samples of gatt2mqtt and their trend: a least-squares line through (time, KiB),
/// whose slope is the growth per hour. A line rather than end minus start, because resident memory
/// moves by tens of KiB as pages are touched and given back; one sample at either end would decide it.
struct MemoryTrend: Codable, Sendable {
    struct Sample: Codable, Sendable {
        /// Seconds since the soak began.
        var seconds: Double
        /// VmRSS, KiB.
        var residentKilobytes: Int
        /// RssAnon, KiB: what the process allocated itself (ProcessUsage).
        var anonymousKilobytes: Int
    }

    var samples: [Sample] = []

    /// Growth in KiB per hour of `value` over the samples taken at or after `from` seconds.
    func slopePerHour(from: Double = 0, _ value: (Sample) -> Int) -> Double? {
        let points = samples.filter { $0.seconds >= from }.map { ($0.seconds, Double(value($0))) }
        guard points.count >= 2 else { return nil }
        let count = Double(points.count)
        let meanX = points.map(\.0).reduce(0, +) / count
        let meanY = points.map(\.1).reduce(0, +) / count
        let spread = points.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
        guard spread > 0 else { return nil }
        let covariance = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +)
        return covariance / spread * 3600
    }
}
