/// How a battery byte from FFF3 becomes a percentage (cpr-band-and-grip.md §A.8.3). A value, so the
/// bridge can swap in another mapping (from configuration: it is Codable) without touching the decoder.
///
/// `busLibrary` reproduces the vendor's Bus library exactly, including its **83 % quirk**: voltages are
/// clamped to 3.5–4.0 V but divided by a 0.6 V span, so a full battery (4.0–4.2 V, raw 200–210) reads
/// 83.3 %, and only the special byte `0xFF` ever reads 100 %. `fullSpan` is the same rule with the clamp
/// widened to 4.2 V, so the documented byte range maps onto 0–100 %.
public struct CPRBandBatteryMapping: Sendable, Equatable, Hashable, Codable {
    /// A byte with a fixed percentage and no voltage.
    public struct FixedEntry: Sendable, Equatable, Hashable, Codable {
        /// The wire byte.
        public var raw: UInt8
        /// The percentage it reads as.
        public var percent: Double

        /// Creates an entry.
        public init(raw: UInt8, percent: Double) {
            self.raw = raw
            self.percent = percent
        }
    }

    /// Bytes with a fixed percentage and no voltage, checked first (Bus: `0xFF` is 100 %, probably full
    /// or charging).
    public var fixedEntries: [FixedEntry]
    /// Bytes that carry a voltage (Bus: 175–210, i.e. 3.50–4.20 V); other bytes are not mapped.
    public var voltageBytes: ClosedRange<UInt8>
    /// Volts per raw unit (0.02, so raw × 20 mV).
    public var voltsPerUnit: Double
    /// Voltages are clamped to this range before the percentage is computed.
    public var clampVolts: ClosedRange<Double>
    /// The voltage that reads 0 %.
    public var emptyVolts: Double
    /// The span of volts that makes 100 % (Bus: 0.6, hence the quirk).
    public var spanVolts: Double

    /// Creates a mapping.
    public init(
        fixedEntries: [FixedEntry], voltageBytes: ClosedRange<UInt8>, voltsPerUnit: Double,
        clampVolts: ClosedRange<Double>, emptyVolts: Double, spanVolts: Double
    ) {
        self.fixedEntries = fixedEntries
        self.voltageBytes = voltageBytes
        self.voltsPerUnit = voltsPerUnit
        self.clampVolts = clampVolts
        self.emptyVolts = emptyVolts
        self.spanVolts = spanVolts
    }

    /// The Bus library's mapping, quirk included: `0xAF` 0 %, `0xB4` 16.7 %, `0xBE` 50 %, `0xC3` 66.7 %,
    /// `0xC8`–`0xD2` 83.3 %, `0xFF` 100 %.
    public static let busLibrary = CPRBandBatteryMapping(
        fixedEntries: [FixedEntry(raw: 0xFF, percent: 100)], voltageBytes: 175...210, voltsPerUnit: 0.02,
        clampVolts: 3.5...4.0,
        emptyVolts: 3.5, spanVolts: 0.6)

    /// Linear 3.5–4.2 V onto 0–100 %, without the quirk; `0xFF` stays 100 %.
    public static let fullSpan = CPRBandBatteryMapping(
        fixedEntries: [FixedEntry(raw: 0xFF, percent: 100)], voltageBytes: 175...210, voltsPerUnit: 0.02,
        clampVolts: 3.5...4.2,
        emptyVolts: 3.5, spanVolts: 0.7)

    /// The level for a raw byte.
    /// - Throws: `CPRBandDecodeReason.unmappedBattery` for a byte the mapping does not cover (Bus
    ///   ignores such bytes), or one whose percentage is not finite.
    public func level(raw: UInt8) throws(CPRBandDecodeError) -> CPRBandBatteryLevel {
        let unmapped = CPRBandDecodeError(
            characteristic: CPRBandGATT.Characteristic.battery, reason: .unmappedBattery(raw))
        if let percent = fixedEntries.first(where: { $0.raw == raw })?.percent {
            return CPRBandBatteryLevel(raw: raw, percent: percent, volts: nil)
        }
        guard voltageBytes.contains(raw) else { throw unmapped }
        let volts = Double(raw) * voltsPerUnit
        let clamped = min(max(volts, clampVolts.lowerBound), clampVolts.upperBound)
        let percent = (clamped - emptyVolts) / spanVolts * 100
        guard percent.isFinite else { throw unmapped }
        return CPRBandBatteryLevel(raw: raw, percent: percent, volts: volts)
    }
}
