/// Software tare for new-protocol devices, which have no tare command (activ5.md §5): the bridge captures the
/// force read while nobody presses and subtracts it from later samples. Works for legacy readings as well.
public struct ForceTare: Sendable, Equatable {
    /// Newtons subtracted from every sample.
    public private(set) var offsetNewtons: Double

    /// Creates a tare with an offset; zero means "not tared".
    public init(offsetNewtons: Double = 0) {
        self.offsetNewtons = offsetNewtons.isFinite ? offsetNewtons : 0
    }

    /// A tare from the mean of `samples` (newtons); averaging a few samples keeps one noisy reading from
    /// shifting the zero. Nil when there is no finite sample.
    public init?(averaging samples: some Sequence<Double>) {
        let finite = samples.filter(\.isFinite)
        guard !finite.isEmpty else { return nil }
        self.init(offsetNewtons: finite.reduce(0, +) / Double(finite.count))
    }

    /// Zeroes on a single reading, like the device's `TARE!` does.
    public mutating func tare(atNewtons newtons: Double) {
        if newtons.isFinite { offsetNewtons = newtons }
    }

    /// Forgets the offset.
    public mutating func reset() { offsetNewtons = 0 }

    /// A sample with the offset removed.
    public func corrected(_ newtons: Double) -> Double { newtons - offsetNewtons }
}
