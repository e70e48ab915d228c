/// The Bus library's angle smoothing (cpr-band-and-grip.md §A.8.2, §A.10): the mean of the last N
/// decoded angles (default 5), converted to an integer by truncation toward zero, reported after each
/// sample. Before N samples have arrived the mean covers the samples so far.
public struct CPRBandAngleMovingAverage: Sendable, Equatable {
    /// Bus's default buffer size (`cpr_mavaBufSize`).
    public static let defaultSampleCount = 5

    /// How many samples the mean covers, at least 1.
    public let sampleCount: Int
    /// The samples in the window, oldest first.
    public private(set) var samples: [Int] = []

    /// Creates an empty window; sizes below 1 are treated as 1.
    public init(sampleCount: Int = CPRBandAngleMovingAverage.defaultSampleCount) {
        self.sampleCount = max(1, sampleCount)
    }

    /// Adds a sample, dropping the oldest beyond `sampleCount`, and returns the new truncated mean.
    @discardableResult
    public mutating func add(_ degrees: Int) -> Int {
        samples.append(degrees)
        if samples.count > sampleCount { samples.removeFirst(samples.count - sampleCount) }
        return Int(mean ?? 0)
    }

    /// The exact mean of the window, nil before the first sample.
    public var mean: Double? {
        samples.isEmpty ? nil : Double(samples.reduce(0, +)) / Double(samples.count)
    }

    /// The mean truncated toward zero, as Bus reports it; nil before the first sample.
    public var value: Int? { mean.map { Int($0) } }

    /// Empties the window (e.g. when streaming starts again).
    public mutating func reset() { samples.removeAll() }
}
