import Bridge
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One family's section of the merged settings, as the family's `FamilySettings.init(from:)` reads it.
struct FamilySectionValues: FamilySettingValues {
    let settings: Settings
    let family: DeviceFamily

    private func setting(_ path: String) -> Setting? { settings[.family(family, path)] }

    func text(_ path: String) -> String? {
        if case .text(let text)? = setting(path)?.value { text } else { nil }
    }

    func number(_ path: String) throws(FamilySettingError) -> Double? {
        guard case .number(let value)? = setting(path)?.value else { return nil }
        guard value.isFinite else { throw FamilySettingError(path, "must be a finite number") }
        return value
    }

    func integer(_ path: String) -> Int? {
        if case .integer(let value)? = setting(path)?.value { value } else { nil }
    }

    func integers(_ path: String) -> [Int]? {
        if case .integers(let values)? = setting(path)?.value { values } else { nil }
    }

    func isSet(_ path: String) -> Bool { setting(path) != nil }

    func name(_ path: String) -> String {
        let key = ConfigurationKey.family(family, path)
        return settings[key]?.name ?? key.rawValue
    }

    func contents(of path: String) throws(FamilySettingError) -> Data {
        guard let file = text(path) else { throw FamilySettingError(path, "names no file") }
        do {
            return try ConfigurationResolver.read(file, name: name(path))
        } catch {
            throw FamilySettingError(path, error.message)
        }
    }
}

extension ConfigurationResolver {
    /// Every registered family's settings, each read from its section; errors name the setting as the user gave it.
    func resolveFamilies() throws(ConfigurationError) -> FamilySettingsStore {
        var store = FamilySettingsStore()
        for case (let family, let type?) in FamilySettingsStore.sections {
            let values = FamilySectionValues(settings: settings, family: family)
            do {
                store.set(try type.init(from: values))
            } catch {
                throw ConfigurationError(key: values.name(error.path), message: error.message)
            }
        }
        return store
    }
}
