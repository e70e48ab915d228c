import Glibc

/// Watches an application's traffic at the moment it crosses the bus: a notification handed to D-Bus,
/// a write arriving from the stack. The benchmark takes its timestamps here; a test could count.
/// Called on the bus's threads: keep it short.
public struct GattTrafficObserver: Sendable {
    /// A notification of `characteristic` (lower-case UUID) was just emitted.
    public var notificationSent: @Sendable (_ characteristic: String, _ value: [UInt8]) -> Void
    /// A write to `characteristic` (lower-case UUID) just arrived, before it is checked or answered.
    public var writeReceived: @Sendable (_ characteristic: String, _ value: [UInt8]) -> Void

    public init(
        notificationSent: @escaping @Sendable (String, [UInt8]) -> Void = { _, _ in },
        writeReceived: @escaping @Sendable (String, [UInt8]) -> Void = { _, _ in }
    ) {
        self.notificationSent = notificationSent
        self.writeReceived = writeReceived
    }
}

/// CLOCK_MONOTONIC in nanoseconds: one clock that every process on the machine shares, so that times
/// taken in a virtual peripheral and in the benchmark can be subtracted.
public enum MonotonicClock {
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
