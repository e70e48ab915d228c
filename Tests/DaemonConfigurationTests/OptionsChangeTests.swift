import Bridge
import Foundation
import Testing

@testable import DaemonConfiguration

#if canImport(Glibc)
    import Glibc
#endif

/// `request/options` on the daemon's side (issue #46, item 2): a change is checked as the file is, with the same
/// messages and names, kept in the state directory apart from the file, and read again at the next start.
struct OptionsChangeTests {
    /// The file, with the state directory in `folder`, loaded as the daemon loads it (options kept there read).
    private func start(_ folder: TemporaryFolder, _ yaml: String = "devices: {auto_connect: allowed}") throws
        -> LoadedConfiguration
    {
        try ConfigurationLoader.load(
            yaml: "state_directory: \(folder.path)\n" + yaml, directory: folder.path, hostName: "testhost",
            readsOptions: true)
    }

    /// The message without the line it names: the file's errors say where in the file, the options' where in the JSON.
    private func words(_ error: ConfigurationError) -> String {
        error.description.replacing(#/ \(line \d+\)/#, with: "")
    }

    @Test func aChangeIsListedKeptAndReadAgainAtTheNextStart() throws {
        let folder = try TemporaryFolder()
        let loaded = try start(folder)
        let change = try loaded.changing([
            "devices": .object(["allow": .array([.string("aa:bb:cc:dd:ee:ff")])]), "health_s": .number(30),
        ])
        #expect(change.changed == ["devices.allow", "health_s"])
        #expect(change.configuration.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:FF"]))
        #expect(change.configuration.bridge.healthInterval == .seconds(30))
        try change.persist()
        let kept = try String(contentsOfFile: folder.path + "/options.json", encoding: .utf8)
        #expect(kept == #"{"devices":{"allow":["aa:bb:cc:dd:ee:ff"]},"health_s":30}"# + "\n")

        let restarted = try start(folder)
        #expect(restarted.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:FF"]))
        #expect(restarted.bridge.healthInterval == .seconds(30))
        #expect(restarted.description.contains("health_s: 30  # from request/options\n"))
        #expect(restarted.description.contains(#"allow: ["AA:BB:CC:DD:EE:FF"]  # from request/options"#))
        // The file itself was never written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["options.json"])
    }

    @Test func nullPutsAKeyBackToTheFilesValueAndLaterChangesBuildOnEarlierOnes() throws {
        let folder = try TemporaryFolder()
        let first = try start(folder, "health_s: 20").changing(["health_s": .number(5), "log_level": .string("debug")])
        let second = try first.configuration.changing(["health_s": .null])
        #expect(second.changed == ["health_s"])
        #expect(second.configuration.bridge.healthInterval == .seconds(20), "the file's value again")
        #expect(second.configuration.logLevel == .debug, "the earlier change stays")
    }

    /// What `request/rename` sends: the whole map of aliases with the change, the one dropped as null, and an empty map
    /// when none is left, which replaces the file's list (a null would bring it back).
    @Test func aliasesChangeAsAWholeMapAndAnEmptyOneDropsTheFilesToo() throws {
        let folder = try TemporaryFolder()
        let loaded = try start(
            folder, "devices: {aliases: {\"AA:BB:CC:DD:EE:01\": front, \"AA:BB:CC:DD:EE:02\": back}}")
        let renamed = try loaded.changing([
            "devices": .object([
                "aliases": .object(["AA:BB:CC:DD:EE:01": .string("left"), "AA:BB:CC:DD:EE:02": .string("back")])
            ])
        ])
        #expect(renamed.changed == ["devices.aliases"])
        #expect(renamed.configuration.bridge.aliases == ["AA:BB:CC:DD:EE:01": "left", "AA:BB:CC:DD:EE:02": "back"])
        let dropped = try renamed.configuration.changing([
            "devices": .object(["aliases": .object(["AA:BB:CC:DD:EE:01": .string("left"), "AA:BB:CC:DD:EE:02": .null])])
        ])
        #expect(dropped.configuration.bridge.aliases == ["AA:BB:CC:DD:EE:01": "left"])
        let none = try dropped.configuration.changing(["devices": .object(["aliases": .object([:])])])
        #expect(none.configuration.bridge.aliases == [:], "not the file's two again")
        try none.persist()
        #expect(try start(folder, "devices: {aliases: {\"AA:BB:CC:DD:EE:01\": front}}").bridge.aliases == [:])
    }

    /// What the file refuses, options refuse with the same words and the same key.
    @Test(arguments: [
        (#"{"health_s": "fast"}"#, "health_s: \"fast\""),
        (#"{"a5": {"squeeze_newtons": 2}}"#, "a5: {squeeze_newtons: 2}"),
        (#"{"devices": {"auto_connect": "sometimes"}}"#, "devices: {auto_connect: sometimes}"),
        (#"{"devices": {"speed": 3}}"#, "devices: {speed: 3}"),
        (#"{"log_level": "loud"}"#, "log_level: loud"),
    ])
    func refusalsAreTheFilesOwn(options: String, file: String) throws {
        let folder = try TemporaryFolder()
        let loaded = try start(folder, "")
        guard case .object(let members)? = JSONValue.parse(Array(options.utf8)) else {
            Issue.record("not JSON: \(options)")
            return
        }
        let fileError = try #require(loadError(file))
        #expect {
            _ = try loaded.changing(members)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.key == fileError.key && words(error) == words(fileError)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/options.json"), "nothing kept")
    }

    /// The broker, the gateway's name and topics, the state directory, the page and which requests are taken are the
    /// administrator's; file names
    /// could make the gateway read any file; a value the environment or a flag sets wins over options.
    @Test(arguments: [
        (#"{"broker": {"url": "mqtt://elsewhere"}}"#, "broker.url: cannot be changed over MQTT"),
        (#"{"gateway": {"name": "other"}}"#, "gateway.name: cannot be changed over MQTT"),
        (#"{"base_topic": "x"}"#, "base_topic: cannot be changed over MQTT"),
        // Which requests are taken: switched off over MQTT, nobody could switch them on again over MQTT.
        (#"{"requests": {"privileged": false}}"#, "requests.privileged: cannot be changed over MQTT"),
        (#"{"health_file": "/etc/shadow"}"#, "health_file: names a file"),
        (#"{"log_level": "debug"}"#, "log_level: is set by GATT2MQTT_LOG_LEVEL, which overrides options"),
        (#"{}"#, "options: must name at least one setting"),
    ])
    func someKeysAreNotForOptions(options: String, message: String) throws {
        let folder = try TemporaryFolder()
        let loaded = try ConfigurationLoader.load(
            yaml: "state_directory: \(folder.path)", directory: folder.path,
            environment: ["GATT2MQTT_LOG_LEVEL": "info"], hostName: "testhost", readsOptions: true)
        guard case .object(let members)? = JSONValue.parse(Array(options.utf8)) else {
            Issue.record("not JSON: \(options)")
            return
        }
        #expect {
            _ = try loaded.changing(members)
        } throws: { ($0 as? ConfigurationError)?.description.hasPrefix(message) == true }
    }

    /// A backup's options replace the ones kept as a whole set (`request/restore`, `--restore`): checked by the same
    /// rules as a change, but a key the environment sets is no error there (it stays overridden, as when the backup was
    /// made).
    @Test func aBackupsOptionsAreCheckedAsAWholeSet() throws {
        let folder = try TemporaryFolder()
        let loaded = try ConfigurationLoader.load(
            yaml: "state_directory: \(folder.path)", directory: folder.path,
            environment: ["GATT2MQTT_LOG_LEVEL": "info"], hostName: "testhost", readsOptions: true)
        try loaded.checkingRestored(["log_level": .string("debug"), "health_s": .number(30)])
        try loaded.checkingRestored([:])
        for (options, message) in [
            (#"{"broker": {"url": "mqtt://elsewhere"}}"#, "broker.url: cannot be changed over MQTT"),
            (#"{"health_file": "/etc/shadow"}"#, "health_file: names a file"),
            (#"{"health_s": -1}"#, "health_s: must be"),
            (#"{"devices": {"speed": 3}}"#, "devices.speed: unknown key"),
        ] {
            guard case .object(let members)? = JSONValue.parse(Array(options.utf8)) else {
                Issue.record("not JSON: \(options)")
                continue
            }
            #expect {
                try loaded.checkingRestored(members)
            } throws: { ($0 as? ConfigurationError).map(words)?.contains(message) == true }
        }
    }

    /// Before: a damaged options file stopped the gateway (exit 78) until someone removed it. Now the start goes on
    /// with the file's settings, and says what it left out; the daemon sets the file aside (`UnusableOptions`).
    @Test(arguments: [
        ("{not json", "options.json: not a JSON object of settings"),
        (#"{"health_s": -1}"#, "health_s: must be"),
        (#"{"devices": {"speed": 3}}"#, "devices.speed: unknown key"),
    ])
    func aDamagedOptionsFileIsLeftOutAndTheFilesSettingsApply(content: String, reason: String) throws {
        let folder = try TemporaryFolder()
        try folder.write("options.json", content)
        let loaded = try start(folder, "health_s: 20")
        #expect(loaded.bridge.healthInterval == .seconds(20), "the file's value")
        let unusable = try #require(loaded.unusableOptions)
        #expect(unusable.file == folder.path + "/options.json")
        #expect(unusable.reason.contains(reason), "\(unusable.reason)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/options.json"), "loading alone moves nothing")

        let line = unusable.setAside(at: Date(timeIntervalSince1970: 1_796_183_724))
        let aside = folder.path + "/options.json.damaged-20261202T035524Z"
        #expect(
            line == "cannot use the options kept over MQTT (\(unusable.reason)); set aside as \(aside); "
                + "the gateway starts on the configuration file's settings without them")
        #expect(try String(contentsOfFile: aside, encoding: .utf8) == content)
        #expect(try start(folder, "health_s: 20").unusableOptions == nil, "the next start finds none")
    }

    /// A FIFO in the options' place does not hold the start: it is refused with what it is.
    @Test func aFIFOInTheOptionsPlaceIsRefusedAtOnce() throws {
        let folder = try TemporaryFolder()
        #expect(mkfifo(folder.path + "/options.json", 0o600) == 0)
        let unusable = try #require(try start(folder).unusableOptions)
        #expect(unusable.reason == folder.path + "/options.json: it is a FIFO, not a regular file")
    }

    /// Sound options stay; an error of the file itself still stops the start, options or not.
    @Test func soundOptionsStayAndTheFilesOwnErrorsStillStop() throws {
        let folder = try TemporaryFolder()
        try folder.write("options.json", #"{"health_s": 30}"#)
        let loaded = try start(folder, "health_s: 20")
        #expect(loaded.bridge.healthInterval == .seconds(30))
        #expect(loaded.unusableOptions == nil)
        try folder.write("options.json", #"{"health_s": -1}"#)
        #expect {
            _ = try start(folder, "health_s: 20\nlog_level: loud")
        } throws: { ($0 as? ConfigurationError)?.key == "log_level" }
    }
}
