/// A strap's charge from Battery Level (2A19, Battery service 180F): one byte, 0–100 %, 101–255 reserved.
///
/// The Activ5 and the grip read 2A19 too, each inside its own family's decoder (the Activ5 without a range check),
/// so nothing shared existed to reuse; this one refuses the reserved values, since a charge above 100 % is a broken
/// reading, not a new meaning.
public struct HeartRateBatteryLevel: Sendable, Equatable, Hashable {
    /// The percentages the characteristic can hold.
    public static let validPercent: ClosedRange<UInt8> = 0...100

    /// Charge in percent, 0–100.
    public let percent: Int

    /// Decodes a read of 2A19: exactly one byte, at most 100.
    /// - Throws: `HeartRateDecodeError` for an empty or longer value, or a level above 100.
    public init(bytes: [UInt8]) throws(HeartRateDecodeError) {
        let uuid = HeartRateGATT.Characteristic.batteryLevel
        let level = try HeartRateDecodeError.singleByte(bytes, characteristic: uuid)
        guard Self.validPercent.contains(level) else {
            throw HeartRateDecodeError(characteristic: uuid, reason: .batteryLevelOutOfRange(level))
        }
        percent = Int(level)
    }
}
