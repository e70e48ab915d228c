/// Recognises a CPR-Band from what a scan reports (cpr-band-and-grip.md §A.1).
///
/// Decision: the name alone decides. A band is a device whose advertised name starts with `CPR-` in any
/// case, after trimming white space (the name may carry the padding spaces of §A.7). That is the rule of
/// the vendor's README and covers the factory name `CPR-BAND` and renamed bands such as `CPR-NewName`.
/// The FFF0 service UUID is neither required (Bus scans without a filter and advertising it is optional)
/// nor sufficient (generic modules and Credo's manikins use FFF0 too). A band renamed to something
/// without the prefix is not recognised: the bridge must then be given its address explicitly.
public enum CPRBandAdvertisement: Sendable {
    /// Name prefix of CPR-Bands, lower-case.
    public static let namePrefix = "cpr-"
    /// The factory-default name (BVM keeps only this exact name).
    public static let factoryName = "CPR-BAND"
    /// How long the Bus library scans before it stops by itself, in seconds.
    public static let busScanDurationSeconds = 15.0
    /// The most bands the vendor's apps drive at once.
    public static let maximumConcurrentBands = 6

    /// Whether a scanned device is a CPR-Band, judged by its advertised name.
    public static func matches(name: String?) -> Bool {
        guard let name else { return false }
        return name.trimming().lowercased().hasPrefix(namePrefix)
    }
}
