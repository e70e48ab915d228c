/// Every registered family's settings, each family's under its own type: a driver asks for its own
/// (`configuration.families[Activ5Options.self]`), and a family never set reads as its defaults.
public struct FamilySettingsStore: Sendable {
    private var byFamily: [DeviceFamily: any FamilySettings] = [:]

    public init() {}

    public subscript<Settings: FamilySettings>(_ type: Settings.Type) -> Settings {
        get { byFamily[Settings.family] as? Settings ?? Settings() }
        set { byFamily[Settings.family] = newValue }
    }

    /// Sets a family's settings whose type is known only at run time (the configuration loader's case).
    public mutating func set(_ settings: any FamilySettings) {
        byFamily[type(of: settings).family] = settings
    }

    /// A family's settings in effect; nil for a family without settings.
    public func settings(of family: DeviceFamily) -> (any FamilySettings)? {
        guard let type = Self.types[family] else { return nil }
        return byFamily[family] ?? type.init()
    }

    /// The registered families in the registry's order, each with the type of its settings (nil for none).
    public static let sections: [(family: DeviceFamily, settings: (any FamilySettings.Type)?)] =
        FamilyRegistry.drivers.map { ($0.family, $0.settings) }

    private static let types: [DeviceFamily: any FamilySettings.Type] = Dictionary(
        uniqueKeysWithValues: sections.compactMap { section in section.settings.map { (section.family, $0) } })
}
