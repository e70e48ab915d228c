/// Running statistics of CPR-Band compressions for one session: how many, how fast and how many were
/// deep enough. Pure: the caller passes each peak's timestamp (seconds on any monotonic clock).
///
/// Rate: the peaks whose time lies in `(now − windowSeconds, now]` give `(count − 1) / (last − first)`
/// compressions per second, times 60. Measuring between peaks (not counting per window) gives the right
/// rate from the second peak on; with fewer than two peaks in the window there is no rate.
///
/// In range: a peak counts when its depth lies in `targetRange` (millimetres, bounds included). The
/// default 50–60 mm is the range the vendor's tools start with; the apps' own "correct" windows differ
/// (30 < v < 60 in the Android sample, 35–60 in BVM), so pass the band's configured range.
public struct CompressionStatistics: Sendable, Equatable {
    /// Default rolling window for the rate, in seconds.
    public static let defaultWindowSeconds = 10.0

    /// Length of the rolling window for `ratePerMinute(at:)`, in seconds.
    public let windowSeconds: Double
    /// Depths that count as correct, in millimetres.
    public let targetRange: ClosedRange<Int>

    /// Peaks recorded.
    public private(set) var count = 0
    /// Peaks inside `targetRange`.
    public private(set) var inRangeCount = 0
    /// Peaks shallower than `targetRange`.
    public private(set) var tooShallowCount = 0
    /// Peaks deeper than `targetRange`.
    public private(set) var tooDeepCount = 0
    /// Time of the first peak.
    public private(set) var firstTime: Double?
    /// Time of the latest peak.
    public private(set) var lastTime: Double?
    /// Shallowest peak, mm.
    public private(set) var minimumMillimetres: Int?
    /// Deepest peak, mm.
    public private(set) var maximumMillimetres: Int?
    private var depthSumMillimetres = 0
    /// Peak times, ascending, from `windowStart` on: those still inside the window of the latest peak. Times
    /// that leave the window are skipped, and dropped once they are half the array, so that a peak costs a
    /// few comparisons rather than a pass over the window (hundreds of peaks a second in a benchmark).
    private var recentTimes: [Double] = []
    private var windowStart = 0

    /// Creates empty statistics. A window that is not positive and finite becomes the default.
    public init(
        windowSeconds: Double = CompressionStatistics.defaultWindowSeconds,
        targetRange: ClosedRange<Int> = Int(
            CPRBandDepthRange.vendorDefault.minMillimetres)...Int(
                CPRBandDepthRange.vendorDefault.maxMillimetres)
    ) {
        self.windowSeconds = windowSeconds > 0 && windowSeconds.isFinite ? windowSeconds : Self.defaultWindowSeconds
        self.targetRange = targetRange
    }

    /// Creates empty statistics counting against a band range.
    public init(windowSeconds: Double = CompressionStatistics.defaultWindowSeconds, range: CPRBandDepthRange) {
        self.init(
            windowSeconds: windowSeconds, targetRange: Int(range.minMillimetres)...Int(range.maxMillimetres))
    }

    /// Records a peak.
    public mutating func record(_ depth: CPRBandDepth, at time: Double) {
        record(millimetres: Int(depth.millimetres), at: time)
    }

    /// Records a peak depth in millimetres.
    public mutating func record(millimetres: Int, at time: Double) {
        count += 1
        depthSumMillimetres += millimetres
        if millimetres < targetRange.lowerBound {
            tooShallowCount += 1
        } else if millimetres > targetRange.upperBound {
            tooDeepCount += 1
        } else {
            inRangeCount += 1
        }
        minimumMillimetres = min(minimumMillimetres ?? millimetres, millimetres)
        maximumMillimetres = max(maximumMillimetres ?? millimetres, millimetres)
        firstTime = min(firstTime ?? time, time)
        lastTime = max(lastTime ?? time, time)
        // Peaks come in time order; one that does not is put in its place.
        if let latest = recentTimes.last, time < latest {
            recentTimes.insert(time, at: Self.firstIndex(in: recentTimes, from: windowStart) { $0 > time })
        } else {
            recentTimes.append(time)
        }
        let horizon = (lastTime ?? time) - windowSeconds
        while windowStart < recentTimes.count, recentTimes[windowStart] <= horizon { windowStart += 1 }
        if windowStart > recentTimes.count / 2 {
            recentTimes.removeFirst(windowStart)
            windowStart = 0
        }
    }

    /// The first index from `start` whose time `isAfter` takes (binary search: `isAfter` is false, then true).
    private static func firstIndex(in times: [Double], from start: Int, where isAfter: (Double) -> Bool) -> Int {
        var (low, high) = (start, times.count)
        while low < high {
            let middle = (low + high) / 2
            if isAfter(times[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Compressions per minute over the window ending at `now`; nil with fewer than two peaks in it.
    public func ratePerMinute(at now: Double) -> Double? {
        let from = Self.firstIndex(in: recentTimes, from: windowStart) { $0 > now - windowSeconds }
        let to = Self.firstIndex(in: recentTimes, from: from) { $0 > now }
        guard to - from >= 2 else { return nil }
        let (first, last) = (recentTimes[from], recentTimes[to - 1])
        guard last > first else { return nil }
        return Double(to - from - 1) / (last - first) * 60
    }

    /// Share of peaks inside `targetRange`, 0–1; nil before the first peak.
    public var inRangeShare: Double? { count == 0 ? nil : Double(inRangeCount) / Double(count) }

    /// Mean peak depth in centimetres; nil before the first peak.
    public var meanDepthCentimetres: Double? {
        count == 0 ? nil : Double(depthSumMillimetres) / Double(count) / 10
    }

    /// The session so far as one value.
    public var summary: CompressionSessionSummary {
        let duration = firstTime.flatMap { first in lastTime.map { $0 - first } } ?? 0
        return CompressionSessionSummary(
            count: count, inRangeCount: inRangeCount, tooShallowCount: tooShallowCount, tooDeepCount: tooDeepCount,
            inRangeShare: inRangeShare, meanDepthCentimetres: meanDepthCentimetres,
            minimumDepthCentimetres: minimumMillimetres.map { Double($0) / 10 },
            maximumDepthCentimetres: maximumMillimetres.map { Double($0) / 10 }, durationSeconds: duration,
            averageRatePerMinute: count >= 2 && duration > 0 ? Double(count - 1) / duration * 60 : nil)
    }
}
