import Bridge
import Testing

@testable import DaemonConfiguration

/// The configuration in effect (`--print-config`, the gateway's `info`) is said by key: every entry is a setting the
/// file, `--help` and the reference know (`ConfigurationKey`), but the file's version and a family's empty section.
struct SettingsInEffectTests {
    @Test func everyEntryIsASettingTheFileKnows() throws {
        let loaded = try load(
            """
            broker:
              url: mqtt://broker.lan:1883
              username: gateway
            devices:
              auto_connect: allowed
              allow: ["00:AA:01:00:00:01"]
            http:
              listen: 9000
            fleet:
              enabled: true
            """)
        let paths = loaded.settingsInEffect.map(\.path)
        let families = Set(FamilySettingsStore.sections.map(\.family.rawValue))
        let others = paths.filter { ConfigurationKey(rawValue: $0) == nil }
        #expect(others.allSatisfy { $0 == "version" || families.contains($0) }, "\(others)")
        // The branches a fuller file takes are among them: the allow list, the user, the page, the fleet's own.
        for key in [ConfigurationKey.allow, .username, .httpListen, .fleetRefreshSeconds, .fleetIncarnationFile] {
            #expect(paths.contains(key.rawValue), "\(key.rawValue)")
        }
        #expect(Set(paths).count == paths.count, "each once")
    }

    @Test func withoutThePageItIsSaidOff() throws {
        let settings = try load("").settingsInEffect
        #expect(settings.last == EffectiveSetting("http", .unset("(off)")))
    }
}
