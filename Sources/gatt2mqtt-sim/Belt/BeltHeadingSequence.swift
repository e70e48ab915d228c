import Peripherals

/// `--sequence-heading`: FE0C values the benchmark can tell apart. The n-th orientation notification
/// since the central subscribed (n = 1, 2, …) carries belt heading (n − 1) mod 360, and the same box
/// heading; the heading offset is not applied, so the count is what the bridge publishes on
/// `belt/<id>/heading` (whole degrees 0…359, unchanged).
///
/// The 16 bytes: `02` (fusion), belt heading int16 LE, box heading int16 LE, roll 0, pitch 0, accuracy 5,
/// statuses 3 3 3 3, `00`; heading 1 is `02 0100 0100 0000 0000 0500 03030303 00`.
struct BeltHeadingSequence: Sendable {
    /// Values before the count starts again at 0.
    static let length = 360
    /// Accuracy in degrees, as the turning heading reports it.
    static let accuracy: UInt16 = 5

    private var next = 0

    /// The next value; `restart()` makes the next one 0 again.
    mutating func orientation() -> BeltOrientation {
        defer { next = (next + 1) % Self.length }
        return BeltOrientation(beltHeading: Int16(next), boxHeading: Int16(next), accuracy: Self.accuracy)
    }

    /// Counts from 0 again (a new subscription).
    mutating func restart() { next = 0 }
}
