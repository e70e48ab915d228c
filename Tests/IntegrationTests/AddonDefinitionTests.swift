import Foundation
import TestSupport
import Testing

/// The add-on's files agree with each other and with the project: every option config.yaml offers has its schema
/// entry, its name and description for Home Assistant's form (translations/en.yaml), its line in DOCS.md, and its
/// variable in run.sh; its version is VERSION's. (HomeAssistantAddonTests runs the add-on itself.)
struct AddonDefinitionTests {
    static func read(_ file: String) throws -> String {
        try String(contentsOfFile: ProjectPaths.root + "/addon/" + file, encoding: .utf8)
    }

    /// The keys directly under `section:` in a YAML file laid out as the add-on's are (two spaces a level).
    static func keys(under section: String, in text: String) -> [String] {
        var keys: [String] = []
        var inside = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(section + ":") {
                inside = true
            } else if inside, let first = line.first, first != " ", first != "#" {
                inside = false
            } else if inside, line.hasPrefix("  "), !line.hasPrefix("   "), !line.hasPrefix("  -"),
                let colon = line.firstIndex(of: ":")
            {
                keys.append(String(line[line.index(line.startIndex, offsetBy: 2)..<colon]))
            }
        }
        return keys
    }

    @Test func theAddonsVersionIsTheProjects() throws {
        let version = try ProjectPaths.version()
        #expect(try Self.read("gatt2mqtt/config.yaml").contains("\nversion: \"\(version)\"\n"))
    }

    @Test func everyOptionIsValidatedNamedDocumentedAndPassedOn() throws {
        let configuration = try Self.read("gatt2mqtt/config.yaml")
        let options = Self.keys(under: "options", in: configuration)
        try #require(options.count >= 8, "config.yaml's options: \(options)")
        #expect(Self.keys(under: "schema", in: configuration) == options, "schema and options name the same keys")
        let translations = try Self.read("gatt2mqtt/translations/en.yaml")
        let documentation = try Self.read("gatt2mqtt/DOCS.md")
        let script = try Self.read("gatt2mqtt/run.sh")
        for option in options {
            #expect(translations.contains("\n  \(option):\n    name: "), "translations/en.yaml names \(option)")
            #expect(documentation.contains("- `\(option)`: "), "DOCS.md documents \(option)")
            #expect(script.contains("'.\(option)") || script.contains("(.\(option) "), "run.sh passes \(option) on")
        }
    }

    @Test func theAddonDeclaresWhatItsScriptUses() throws {
        let configuration = try Self.read("gatt2mqtt/config.yaml")
        // The broker comes from the Supervisor's mqtt service, the bus from the host.
        #expect(configuration.contains("services:\n  - mqtt:need\n"))
        #expect(configuration.contains("\nhost_dbus: true\n"))
        #expect(configuration.contains("arch:\n  - amd64\n  - aarch64\n"))
        #expect(try Self.read("gatt2mqtt/run.sh").contains("$api/services/mqtt"))
    }
}
