/// The correct compression-depth range sent with `newRange` (cpr-band-and-grip.md §A.6), in whole
/// millimetres, checked against the documented limits when it is built.
///
/// Limits (Bus swiftdoc): 3.5 ≤ min ≤ 5.5 cm and min ≤ max < 7.0 cm, i.e. 35…55 mm and min…69 mm.
/// Decision: the bridge enforces them, although the vendor's sample app sends 5.0–7.0 cm (max 70 mm,
/// just outside) and the library does not seem to check; the simulator accepts any bytes.
public struct CPRBandDepthRange: Sendable, Equatable, Hashable {
    /// Allowed lower bounds in millimetres.
    public static let minimumLimits = 35...55
    /// Exclusive upper limit of the upper bound in millimetres (7.0 cm).
    public static let maximumLimitExclusive = 70
    /// The range the Credo inspection tool starts with, 5.0–6.0 cm.
    public static let vendorDefault = CPRBandDepthRange(uncheckedMin: 50, max: 60)

    /// Lower bound in millimetres.
    public let minMillimetres: UInt8
    /// Upper bound in millimetres.
    public let maxMillimetres: UInt8

    /// Creates a range from millimetres.
    /// - Throws: `FieldError` naming `minMillimetres` (outside 35…55) or `maxMillimetres`
    ///   (below min or 70 and above).
    public init(minMillimetres: Int, maxMillimetres: Int) throws(FieldError) {
        try FieldError.check(minMillimetres, in: Self.minimumLimits, field: "minMillimetres")
        try FieldError.check(
            maxMillimetres, in: minMillimetres...(Self.maximumLimitExclusive - 1), field: "maxMillimetres")
        self.init(uncheckedMin: UInt8(minMillimetres), max: UInt8(maxMillimetres))
    }

    /// Creates a range from centimetres, rounded to the nearest millimetre. The Bus library truncates
    /// instead, which can turn 5.3 cm into 52 mm; rounding sends what the caller meant.
    /// - Throws: `FieldError` naming `minCentimetres` or `maxCentimetres`.
    public init(minCentimetres: Double, maxCentimetres: Double) throws(FieldError) {
        let minimum = try Self.millimetres(minCentimetres, field: "minCentimetres")
        let maximum = try Self.millimetres(maxCentimetres, field: "maxCentimetres")
        do {
            try self.init(minMillimetres: minimum, maxMillimetres: maximum)
        } catch {
            let field = error.field == "minMillimetres" ? "minCentimetres" : "maxCentimetres"
            throw FieldError(field: field, message: "\(error.message) mm")
        }
    }

    private init(uncheckedMin: UInt8, max: UInt8) {
        minMillimetres = uncheckedMin
        maxMillimetres = max
    }

    /// Lower bound in centimetres.
    public var minCentimetres: Double { Double(minMillimetres) / 10 }
    /// Upper bound in centimetres.
    public var maxCentimetres: Double { Double(maxMillimetres) / 10 }

    /// Whether a peak depth lies inside the range, bounds included.
    public func contains(millimetres: Int) -> Bool {
        (Int(minMillimetres)...Int(maxMillimetres)).contains(millimetres)
    }

    private static func millimetres(_ centimetres: Double, field: String) throws(FieldError) -> Int {
        let scaled = (centimetres * 10).rounded()
        guard scaled.isFinite, abs(scaled) < 1_000 else {
            throw FieldError(field: field, message: "\(centimetres) is not a depth in centimetres")
        }
        return Int(scaled)
    }
}
