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

    private func key(_ path: String) -> ConfigurationKey { .family(family, path) }

    func text(_ path: String) -> String? { settings.text(key(path)) }

    func number(_ path: String) throws(FamilySettingError) -> Double? {
        guard let value = settings.number(key(path)) else { return nil }
        guard value.isFinite else { throw FamilySettingError(path, "must be a finite number") }
        return value
    }

    func integer(_ path: String) -> Int? { settings.integer(key(path)) }

    func integers(_ path: String) -> [Int]? { settings.integers(key(path)) }

    func isSet(_ path: String) -> Bool { settings[key(path)] != nil }

    func name(_ path: String) -> String { settings.name(key(path)) }

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
