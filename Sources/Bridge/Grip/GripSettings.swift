import Peripherals

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The `grip:` section of the configuration: the profile that holds every constant of the camera grip
/// (its wire format is not public), built in or from a JSON file (docs/grip-profile.md).
public struct GripSettings: FamilySettings {
    public static var family: DeviceFamily { .grip }

    public static let keys: [FamilySettingKey] = [
        .init("profile", .path, help: "Camera-grip profile (JSON) instead of the built-in placeholder.")
    ]

    public var profile = GripProfile.placeholder
    /// The file the profile came from; nil for the built-in one.
    public var profileFile: String?

    public init() {}

    public init(from values: some FamilySettingValues) throws(FamilySettingError) {
        guard let path = values.text("profile") else { return }
        let data = try values.contents(of: "profile")
        do {
            profile = try GripProfile.load(json: data)
        } catch {
            throw FamilySettingError("profile", "cannot load \(path): \(error)")
        }
        profileFile = path
    }

    public var effective: [EffectiveSetting] {
        [.init("profile", profileFile.map(EffectiveSetting.Value.text) ?? .unset("(built in)"))]
    }
}

extension BridgeConfiguration {
    /// The camera grip's profile; setting it here drops the file name it came from.
    public var gripProfile: GripProfile {
        get { families[GripSettings.self].profile }
        set { families[GripSettings.self] = GripSettings(profile: newValue) }
    }
}

extension GripSettings {
    init(profile: GripProfile) {
        self.init()
        self.profile = profile
    }
}
