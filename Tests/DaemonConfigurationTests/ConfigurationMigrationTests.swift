import Testing

@testable import DaemonConfiguration

/// The configuration file's `version` and its migration path (issue #46, item 5): a key renamed in a later format
/// is read under its new name from a file of the earlier one, with a notice that names both.
struct ConfigurationMigrationTests {
    /// A next format in which `health_s` was called `health_seconds` before: the path the tests take for any rename.
    private let renamed = ConfigurationMigration(current: 2, renames: [1: ["health_seconds": "health_s"]])

    private func read(_ yaml: String, _ migration: ConfigurationMigration) throws(ConfigurationError) -> Settings {
        try ConfigurationFileReader.read(yaml: yaml, fileName: "(yaml)", directory: "/", migration: migration)
    }

    @Test func aRenamedKeyOfAnEarlierVersionIsReadUnderItsNewNameWithANotice() throws {
        let settings = try read("version: 1\nhealth_seconds: 5\n", renamed)
        #expect(settings[.healthInterval]?.value == .number(5))
        #expect(settings[.healthInterval]?.name == "health_seconds", "errors name what the file says")
        #expect(
            settings.notices == [
                "health_seconds is called health_s since version 2 of the configuration file: rename it there"
            ])
        // A bad value names the key as written.
        #expect {
            _ = try read("version: 1\nhealth_seconds: soon\n", renamed)
        } throws: { ($0 as? ConfigurationError)?.key == "health_seconds" }
        // In the new format the old name is unknown, and the new one reads without a notice.
        #expect {
            _ = try read("version: 2\nhealth_seconds: 5\n", renamed)
        } throws: { ($0 as? ConfigurationError)?.message.hasPrefix("unknown key") == true }
        #expect(try read("version: 2\nhealth_s: 5\n", renamed).notices.isEmpty)
    }

    @Test func aFileWithoutVersionIsOfTheFirstAndALaterVersionIsRefused() throws {
        #expect(try read("health_s: 5\n", .fileFormat)[.healthInterval]?.value == .number(5))
        #expect(try read("version: 1\nhealth_s: 5\n", .fileFormat).notices.isEmpty)
        #expect {
            _ = try read("version: 2\n", .fileFormat)
        } throws: {
            ($0 as? ConfigurationError)?.description
                == "version: is 2; this gatt2mqtt reads versions 1 to 1 of the file (line 1)"
        }
        #expect {
            _ = try read("version: \"1\"\n", .fileFormat)
        } throws: { ($0 as? ConfigurationError)?.key == "version" }
    }

    @Test func theConfigurationInEffectSaysItsVersionAndReadsBack() throws {
        let loaded = try load("health_s: 5")
        #expect(loaded.description.contains("\nversion: 1\nbroker:\n"))
        let again = try ConfigurationFileReader.read(yaml: loaded.description, fileName: "(printed)", directory: "/")
        #expect(again[.healthInterval]?.value == .number(5))
    }
}
