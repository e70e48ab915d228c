/// A finished (or running) compression session, ready to publish.
public struct CompressionSessionSummary: Sendable, Equatable, Hashable, Codable {
    /// Peaks recorded.
    public let count: Int
    /// Peaks inside the target range.
    public let inRangeCount: Int
    /// Peaks below the target range.
    public let tooShallowCount: Int
    /// Peaks above the target range.
    public let tooDeepCount: Int
    /// `inRangeCount / count`; nil without peaks.
    public let inRangeShare: Double?
    /// Mean peak depth, cm.
    public let meanDepthCentimetres: Double?
    /// Shallowest peak, cm.
    public let minimumDepthCentimetres: Double?
    /// Deepest peak, cm.
    public let maximumDepthCentimetres: Double?
    /// Time from the first to the last peak, seconds.
    public let durationSeconds: Double
    /// Mean rate over the whole session, per minute; nil with fewer than two peaks.
    public let averageRatePerMinute: Double?

    /// Creates a summary.
    public init(
        count: Int, inRangeCount: Int, tooShallowCount: Int, tooDeepCount: Int, inRangeShare: Double?,
        meanDepthCentimetres: Double?, minimumDepthCentimetres: Double?, maximumDepthCentimetres: Double?,
        durationSeconds: Double, averageRatePerMinute: Double?
    ) {
        self.count = count
        self.inRangeCount = inRangeCount
        self.tooShallowCount = tooShallowCount
        self.tooDeepCount = tooDeepCount
        self.inRangeShare = inRangeShare
        self.meanDepthCentimetres = meanDepthCentimetres
        self.minimumDepthCentimetres = minimumDepthCentimetres
        self.maximumDepthCentimetres = maximumDepthCentimetres
        self.durationSeconds = durationSeconds
        self.averageRatePerMinute = averageRatePerMinute
    }
}
