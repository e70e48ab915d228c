/// A battery reading from FFF3 (cpr-band-and-grip.md §A.8.3), decoded with a `CPRBandBatteryMapping`.
public struct CPRBandBatteryLevel: Sendable, Equatable, Hashable {
    /// The wire byte.
    public let raw: UInt8
    /// Charge in percent as the mapping computes it, unrounded (16.666… for `0xB4`).
    public let percent: Double
    /// Battery voltage, raw × 20 mV before clamping; nil for bytes with a fixed meaning such as `0xFF`.
    public let volts: Double?

    /// Creates a reading.
    public init(raw: UInt8, percent: Double, volts: Double?) {
        self.raw = raw
        self.percent = percent
        self.volts = volts
    }

    /// Decodes a read; for a longer payload the last byte counts, as in the Bus library.
    /// - Throws: `CPRBandDecodeError` for an empty payload or a byte the mapping does not cover.
    public init(bytes: [UInt8], mapping: CPRBandBatteryMapping = .busLibrary) throws(CPRBandDecodeError) {
        let raw = try CPRBandDecodeError.valueByte(bytes, characteristic: CPRBandGATT.Characteristic.battery)
        self = try mapping.level(raw: raw)
    }

    /// The simulator's raw byte for a voltage: volts / 20 mV, rounded and clamped to 0–254 (255 is the
    /// fixed "100 %" byte, `fullRaw`).
    public static func raw(forVolts volts: Double) -> UInt8 {
        let scaled = (volts / 0.02).rounded()
        return scaled.isNaN ? 0 : UInt8(min(max(scaled, 0), 254))
    }

    /// The byte a full or charging band reports.
    public static let fullRaw: UInt8 = 0xFF

    /// The one byte the band returns on a read.
    public func encoded() -> [UInt8] { [raw] }
}
