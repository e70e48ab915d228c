#if canImport(Glibc)
    import Glibc  // pow
#endif

/// RSSI to distance, a log-distance path-loss model (cpr-band-and-grip.md §A.9):
/// `distance_m = 10 ^ ((reference_dBm − rssi_dBm) / (10 × exponent))`.
///
/// With the defaults it is the Bus library's formula, `10 ^ ((tx − rssi) / 20)`: free space (exponent
/// 2) with the advertised TX power standing in for the power at 1 m, so it overstates distances (TX
/// level 0 and −60 dBm give about 126 m). Treat the result as a proximity hint and calibrate
/// `referencePowerDBm` (the RSSI measured at 1 m) and `exponent` (2 free space, 2.7–4 indoors) for
/// anything better.
public struct CPRBandDistanceModel: Sendable, Equatable, Hashable, Codable {
    /// Power at 1 m in dBm; nil uses the advertised TX power level, as Bus does.
    public var referencePowerDBm: Double?
    /// Path-loss exponent; Bus uses 2.
    public var exponent: Double

    /// Creates a model; the defaults reproduce the Bus library.
    public init(referencePowerDBm: Double? = nil, exponent: Double = 2) {
        self.referencePowerDBm = referencePowerDBm
        self.exponent = exponent
    }

    /// The Bus library's model.
    public static let busLibrary = CPRBandDistanceModel()

    /// Distance in metres for an RSSI, with the TX power the device advertises (dBm, BlueZ `TxPower`) as
    /// the reference when it sends one, as Bus does, else `referencePowerDBm`.
    public func distanceMetres(rssi: Double, advertisedTxPowerDBm: Double?) -> Double? {
        distance(rssi: rssi, reference: advertisedTxPowerDBm ?? referencePowerDBm)
    }

    /// Distance in metres for an RSSI, using `referencePowerDBm` or else the advertised TX power level
    /// (0–7, BlueZ `TxPower`). Nil when neither gives a reference (Bus reports no distance then), or
    /// when the exponent is not positive or a value, the result included, is not finite.
    public func distanceMetres(rssi: Double, txPowerLevel: Int?) -> Double? {
        distance(
            rssi: rssi, reference: referencePowerDBm ?? txPowerLevel.flatMap(CPRBandTXPowerLevel.init(rawValue:))?.dBm)
    }

    private func distance(rssi: Double, reference: Double?) -> Double? {
        guard let reference, exponent > 0, exponent.isFinite, rssi.isFinite, reference.isFinite else { return nil }
        // A tiny exponent makes the power overflow: `inf` is no distance to publish.
        let metres = pow(10, (reference - rssi) / (10 * exponent))
        return metres.isFinite ? metres : nil
    }
}
