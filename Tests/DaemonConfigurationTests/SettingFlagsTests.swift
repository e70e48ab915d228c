import Bridge
import Foundation
import TestSupport
import Testing

@testable import DaemonConfiguration

/// Every setting has a flag derived from its key (issue #46, item 5), as it has an environment variable: the
/// executable declares none, so a key is a flag, a variable, a line of `--help` and a row of docs/settings.md at once.
struct SettingFlagsTests {
    @Test(arguments: ConfigurationKey.allCases)
    func everyKeyButASecretHasItsOwnFlagReadByItsKind(key: ConfigurationKey) throws {
        guard key.kind != .secret else {
            #expect(key.flag == nil, "a secret on the command line would show in ps")
            return
        }
        let (text, value) = sample(key.kind)
        guard let flag = key.flag else {
            // `adapter`'s one value is `adapters`' flag, which was always --adapter.
            #expect(key == .adapter && key.alternative?.flags.contains("--adapter") == true)
            return
        }
        let expected =
            "--"
            + key.rawValue.replacingOccurrences(of: "_s", with: "_seconds", options: [.anchored, .backwards])
            .replacingOccurrences(of: ".", with: "-").replacingOccurrences(of: "_", with: "-")
        #expect(flag == expected)
        for given in [[flag, text], ["\(flag)=\(text)"]] {
            let settings = try SettingFlags.settings(given)
            #expect(settings[key]?.value == value, "\(given)")
            #expect(settings[key]?.name == flag && settings[key]?.source == .commandLine)
        }
    }

    @Test func noTwoKeysShareAFlag() {
        let flags = ConfigurationKey.allCases.flatMap { $0.flags + $0.switches.map(\.flag) }
        #expect(Set(flags).count == flags.count)
    }

    /// The flags of earlier releases still work: the gateway's, which the executable used to declare.
    @Test func earlierFlagsStillWork() throws {
        let loaded = try load(
            "",
            flags: flags(
                "--broker", "mqtt://b:1884", "--gateway", "g", "--mqtt-version", "3.1.1", "--auto-connect", "none",
                "--http", "127.0.0.1:9000"))
        #expect(loaded.bridge.mqtt.host == "b" && loaded.bridge.mqtt.port == 1884)
        #expect(loaded.bridge.gateway == "g" && loaded.bridge.mqtt.protocolVersion == .v311)
        #expect(loaded.bridge.autoConnect == .none && loaded.http?.listen == "127.0.0.1:9000")
        #expect(loaded.description.contains("  url: \"mqtt://b:1884\"  # from --broker\n"))
    }

    /// A list's flag adds to the list each time; under either of its names.
    @Test func aRepeatedListFlagAddsToTheList() throws {
        let loaded = try load("", flags: flags("--adapter", "hci0", "--adapters", "hci1,hci2", "--adapter=hci3"))
        #expect(loaded.bridge.adapters == ["hci0", "hci1", "hci2", "hci3"])
        #expect(loaded.description.contains("adapters: [\"hci0\", \"hci1\", \"hci2\", \"hci3\"]  # from --adapter\n"))
        #expect(try load("", flags: flags("--adapter-slots", "2", "--adapter-slots", "3")).bridge.adapterSlots == 3)
    }

    @Test func switchesSetTheirKeyAndTheLaterFlagWins() throws {
        #expect(try load("", flags: flags("--start-notify")).bridge.acquireNotify == false)
        #expect(try load("", flags: flags("--fleet", "--no-fleet")).bridge.fleet == nil)
        #expect(try load("", flags: flags("--no-fleet", "--fleet-enabled", "true")).bridge.fleet?.joining == .always)
        #expect(
            loadError("", flags: flags("--no-fleet=yes"))?.description == "--no-fleet: takes no value")
    }

    /// The gateway's flags and the families' alike.
    @Test(arguments: [
        (["--broker-url"], "--broker-url: needs a value"),
        (["--broker-password", "x"], "--broker-password: is not an option of gatt2mqtt (see --help)"),
        (["--adapter-slots", "many"], "--adapter-slots: must be a whole number, not 'many'"),
        (["--adapter-slots", "0"], "--adapter-slots: must be from 1 to 64 connections, not 0"),
        (["--a5-squeze-newtons", "25"], "--a5-squeze-newtons: is not an option of gatt2mqtt (see --help)"),
        (["stray"], "stray: is not an option of gatt2mqtt (see --help)"),
        (["--a5-squeeze-newtons"], "--a5-squeeze-newtons: needs a value"),
        (["--a5-squeeze-newtons", "lots"], "--a5-squeeze-newtons: must be a number, not 'lots'"),
        (["--cpr-angle-samples=2.5"], "--cpr-angle-samples: must be a whole number, not '2.5'"),
        (["--cpr-range-mm", "40,"], "--cpr-range-mm: must be whole numbers separated by commas, not '40,'"),
        (
            ["--cpr-range-mm", "40"],
            "--cpr-range-mm: must be [min, max] in millimetres, min 35…55 and max from min to 69, not [40]"
        ),
        (["--a5-reconnect", "sometimes"], "--a5-reconnect: must be auto or manual, not 'sometimes'"),
        (["--grip-profile", "/no/grip.json"], "--grip-profile: cannot read /no/grip.json: no such file"),
    ])
    func aBadFlagIsAnErrorNamingIt(arguments: [String], message: String) throws {
        let error = try #require(loadError("", flags: CommandLineSettings(arguments: arguments)))
        #expect(error.description == message)
    }

    /// `--help` names every flag and, for each, its key and its default.
    @Test func theHelpListsEveryFlagWithItsKeyAndDefault() {
        let help = SettingFlags.help
        let joined = help.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
        for key in ConfigurationKey.allCases {
            if let flag = key.flag {
                #expect(help.contains("\n  \(flag) <"), "\(flag) is not in --help")
                #expect(joined.contains("File: \(key.rawValue). Default: \(SettingsReference.defaultText(key))."))
            }
            for switchFlag in key.switches { #expect(help.contains("\n  \(switchFlag.flag)\n")) }
        }
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 }, "the help's own wrapping would break it")
    }

    /// The reference's defaults are the resolver's: what an empty configuration holds.
    @Test func theReferenceShowsTheDefaultsInEffect() throws {
        let empty = try load("")
        #expect(SettingsReference.defaultText(.adapterSlots) == String(empty.bridge.adapterSlots))
        #expect(SettingsReference.defaultText(.keepAlive) == String(empty.bridge.mqtt.keepAlive))
        #expect(SettingsReference.defaultText(.logLevelMQTT) == empty.logLevelMQTT?.rawValue)
        #expect(SettingsReference.defaultText(.httpMaxConnections) != "none", "the page's keys show with the page on")
        #expect(SettingsReference.defaultText(.httpListen).hasPrefix("none"), "the page is off by default")
    }

    /// docs/settings.md is the reference as `--print-settings-reference` prints it; one row per key.
    @Test func theDocsHoldTheReference() throws {
        let reference = SettingsReference.markdown()
        let docs = try String(contentsOfFile: ProjectPaths.root + "/docs/settings.md", encoding: .utf8)
        #expect(docs == reference, "docs/settings.md is stale: gatt2mqtt --print-settings-reference > docs/settings.md")
        for key in ConfigurationKey.allCases { #expect(reference.contains("\n| `\(key.rawValue)` | ")) }
    }
}
