/// A tiny seeded generator (Steele, Lea and Flood's SplitMix64), so every property test run is
/// reproducible from the seed printed with its failure.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// Uniform in 0..<1, from the top 53 bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in `range`; the tiny modulo bias is irrelevant for simulations.
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// Uniform in `range`, for nanosecond times.
    public mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// Approximately standard normal (Irwin-Hall: the sum of twelve uniforms minus six has mean 0
    /// and variance 1, and needs no logarithms).
    public mutating func gaussian() -> Double {
        var sum = 0.0
        for _ in 0..<12 { sum += unit() }
        return sum - 6
    }

    /// One element of a non-empty array.
    public mutating func element<T>(of values: [T]) -> T {
        values[integer(in: 0...(values.count - 1))]
    }
}
