import Peripherals

/// `--sequence-peaks`: FFF1 peaks the benchmark can tell apart. The n-th peak since the central
/// subscribed to FFF1 (n = 1, 2, …) is the byte ((n − 1) mod 255) + 1: 1, 2, … 255 mm, then 1 again.
/// A millimetre is the smallest step that changes what the bridge publishes on `cpr/<id>/peak` (raw / 10
/// in centimetres, one decimal), so the n-th publication is "0.1", "0.2", … "25.5", then "0.1" again: a
/// period of 255. Zero is left out: a compression always has a depth.
struct CPRBandPeakSequence: Sendable {
    /// Peaks before the count starts again at 1.
    static let length = Int(UInt8.max)

    private var next: UInt8 = 1

    /// The next peak; `restart()` makes the next one 1 mm again.
    mutating func depth() -> CPRBandDepth {
        defer { next = next == .max ? 1 : next + 1 }
        return CPRBandDepth(millimetres: next)
    }

    /// Counts from 1 again (a new subscription).
    mutating func restart() { next = 1 }
}
