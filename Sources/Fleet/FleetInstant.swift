/// A point on one gateway's own monotonic clock, in nanoseconds.
///
/// Gateways share no clock, so an instant never travels in a payload: it only orders what this
/// gateway saw and when its leases and timers run out. The caller reads the clock and passes the
/// instant in, which keeps every decision reproducible in tests.
public struct FleetInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary origin chosen by the caller (for example boot time).
    public let nanoseconds: Int64

    /// Creates an instant from nanoseconds since the caller's origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The instant `seconds` after the origin; handy in tests and simulations.
    public static func seconds(_ seconds: Int64) -> FleetInstant {
        FleetInstant(nanoseconds: seconds.multipliedClamped(by: 1_000_000_000))
    }

    public static func < (lhs: FleetInstant, rhs: FleetInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The instant `duration` later, clamped at the ends of the range instead of trapping.
    public static func + (lhs: FleetInstant, rhs: Duration) -> FleetInstant {
        FleetInstant(nanoseconds: lhs.nanoseconds.addingClamped(rhs.clampedNanoseconds))
    }

    /// The instant `duration` earlier, clamped at the ends of the range instead of trapping.
    public static func - (lhs: FleetInstant, rhs: Duration) -> FleetInstant {
        let nanoseconds = rhs.clampedNanoseconds
        return FleetInstant(nanoseconds: lhs.nanoseconds.addingClamped(nanoseconds == .min ? .max : -nanoseconds))
    }

    /// The time from `rhs` to `lhs` (negative when `lhs` is earlier), clamped instead of trapping.
    public static func - (lhs: FleetInstant, rhs: FleetInstant) -> Duration {
        .nanoseconds(lhs.nanoseconds.addingClamped(rhs.nanoseconds == .min ? .max : -rhs.nanoseconds))
    }

    public var description: String {
        "\(nanoseconds)ns"
    }
}

extension Duration {
    /// Whole nanoseconds, clamped to `Int64`: settings never come near the limit, but a typo in a
    /// configuration file must not crash the daemon.
    var clampedNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedClamped(by: 1_000_000_000).addingClamped(attoseconds / 1_000_000_000)
    }
}

extension Int64 {
    func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    func multipliedClamped(by factor: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: factor)
        guard overflow else { return product }
        return (self < 0) == (factor < 0) ? .max : .min
    }
}
