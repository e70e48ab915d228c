/// A family's section of the configuration (`a5:`, `cpr:`, …): its keys, its defaults, how given values
/// are checked and how the settings in effect are shown. The daemon's configuration reads every
/// registered family's section through this, so a new family's settings live in its own folder.
public protocol FamilySettings: Sendable {
    /// The family whose section this is; the section is named after it.
    static var family: DeviceFamily { get }
    /// Every key of the section, in the order the configuration in effect lists them.
    static var keys: [FamilySettingKey] { get }
    /// The defaults.
    init()
    /// The defaults with the given values applied, each checked; errors name the key by its path in the section.
    init(from values: some FamilySettingValues) throws(FamilySettingError)
    /// The settings in effect, by path in the section, in the order of `keys`.
    var effective: [EffectiveSetting] { get }
    /// The intervals of the family's periodic work (`battery_s`) that one device may have its own of
    /// (`devices.intervals`), each one of `keys` and checked as an interval (`FamilySettingValues.interval`).
    static var perDeviceIntervals: [String] { get }
}

extension FamilySettings {
    public static var perDeviceIntervals: [String] { [] }
}
