/// The sample period written to F0FA (activ5.md §5.4): milliseconds per sample as int16 LE.
///
/// The unit is derived from the iOS demo's labels ("Set 25ms Sample Rate" → `19 00`, "Set 100ms" → `64 00`);
/// the firmware's real range is unknown, so only what the wire can hold is enforced: 1–32767 ms (a positive
/// int16; 0 or negative periods make no sense). Whether it affects F0FE, F0F5 or both is unknown too.
public struct Activ5SamplePeriod: Sendable, Equatable {
    /// Accepted milliseconds.
    public static let validMilliseconds = 1...Int(Int16.max)

    /// Milliseconds per sample.
    public let milliseconds: Int16

    /// Validates a period.
    /// - Throws: `FieldError` for `milliseconds` outside 1–32767.
    public init(milliseconds: Int) throws(FieldError) {
        try FieldError.check(milliseconds, in: Self.validMilliseconds, field: "milliseconds")
        self.milliseconds = Int16(milliseconds)
    }

    /// Samples per second.
    public var hertz: Double { 1000 / Double(milliseconds) }

    /// The two bytes for F0FA, e.g. 25 ms → `19 00`.
    public func encoded() -> [UInt8] { milliseconds.littleEndianBytes }
}
