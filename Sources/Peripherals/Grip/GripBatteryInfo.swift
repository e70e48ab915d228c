/// The grip's battery as the SDK's `BatteryInfo` reports it (cpr-band-and-grip.md §B.3): a level in
/// percent and whether it is low (below the profile's threshold, 30 % in the SDK).
public struct GripBatteryInfo: Sendable, Equatable, Hashable, Codable {
    /// Charge, 0–100 %.
    public let level: Int
    /// Whether `level` is below the low threshold.
    public let isLow: Bool

    /// Creates a reading.
    public init(level: Int, isLow: Bool) {
        self.level = level
        self.isLow = isLow
    }
}
