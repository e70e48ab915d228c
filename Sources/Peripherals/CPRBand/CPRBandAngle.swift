/// A wrist angle from FFF2 (cpr-band-and-grip.md §A.8.2): one unsigned byte, about every 100 ms while
/// streaming, sign-folded at 90.
///
/// Folding (Bus `appendAngle`): raw 0–89 is +raw degrees; raw 90–180 is 90 − raw, i.e. 0 to −90.
/// So +30° is `0x1E`, −30° is `0x78` and −90° is `0xB4`. Which physical tilt is positive is not
/// documented. +90° cannot be sent (raw 90 means 0°), so the encoder limits positive angles to +89°.
public struct CPRBandAngle: Sendable, Equatable, Hashable {
    /// Largest raw byte with a documented meaning (−90°).
    public static let maximumRaw: UInt8 = 180
    /// The raw byte where the sign folds.
    public static let foldRaw: UInt8 = 90

    /// The wire byte, 0–180.
    public let raw: UInt8

    /// Creates an angle from a wire byte.
    /// - Throws: `CPRBandDecodeReason.angleOutOfRange` above 180.
    public init(raw: UInt8) throws(CPRBandDecodeError) {
        guard raw <= Self.maximumRaw else {
            throw CPRBandDecodeError(characteristic: CPRBandGATT.Characteristic.angle, reason: .angleOutOfRange(raw))
        }
        self.raw = raw
    }

    /// Creates an angle from degrees, clamped to −90…+89 (the simulator's encoder; never traps).
    /// 0° is sent as raw 0.
    public init(degrees: Int) {
        let clamped = degrees.clamped(to: -90...89)
        raw = clamped >= 0 ? UInt8(clamped) : UInt8(90 - clamped)
    }

    /// Decodes a notification; for a longer payload the last byte counts, as in the Bus library.
    /// - Throws: `CPRBandDecodeError` for an empty payload or a byte above 180.
    public init(bytes: [UInt8]) throws(CPRBandDecodeError) {
        try self.init(raw: try CPRBandDecodeError.valueByte(bytes, characteristic: CPRBandGATT.Characteristic.angle))
    }

    /// The signed angle in degrees, −90…+89; 0 is the "normal" position.
    public var degrees: Int { raw >= Self.foldRaw ? Int(Self.foldRaw) - Int(raw) : Int(raw) }

    /// The one byte the band notifies.
    public func encoded() -> [UInt8] { [raw] }
}
