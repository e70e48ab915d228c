/// A peak compression depth from FFF1 (cpr-band-and-grip.md §A.8.1): one unsigned byte in millimetres,
/// one notification per compression (about every 500 ms while pressing).
public struct CPRBandDepth: Sendable, Equatable, Hashable {
    /// Depth in millimetres, the wire value.
    public let millimetres: UInt8

    /// Creates a depth from the wire value.
    public init(millimetres: UInt8) { self.millimetres = millimetres }

    /// Creates a depth from centimetres, rounded to the nearest millimetre and clamped to 0–25.5 cm
    /// (the simulator's encoder; never traps).
    public init(centimetres: Double) {
        let scaled = (centimetres * 10).rounded()
        millimetres = scaled.isNaN ? 0 : UInt8(min(max(scaled, 0), 255))
    }

    /// Decodes a notification. Any byte is a valid depth; for a longer payload the last byte counts,
    /// as in the Bus library.
    /// - Throws: `CPRBandDecodeError` for an empty payload.
    public init(bytes: [UInt8]) throws(CPRBandDecodeError) {
        millimetres = try CPRBandDecodeError.valueByte(bytes, characteristic: CPRBandGATT.Characteristic.depth)
    }

    /// Depth in centimetres with one decimal (raw / 10), what Bus reports as `scale`: `0x34` is 5.2 cm.
    public var centimetres: Double { Double(millimetres) / 10 }

    /// The one byte the band notifies.
    public func encoded() -> [UInt8] { [millimetres] }
}
