import Foundation
import Testing

@testable import DaemonConfiguration

struct PasswordTests {
    static let password = "correct-horse-battery-staple"

    /// Every way the configuration can be turned into text.
    private func renderings(_ loaded: LoadedConfiguration) -> [String] {
        var dumped = ""
        dump(loaded, to: &dumped)
        return [
            loaded.description, loaded.debugDescription, String(describing: loaded), String(reflecting: loaded),
            "\(loaded)", dumped,
        ]
    }

    /// The gateway's retained `info` carries the settings in effect: a password is `set` or `unset`, from wherever it
    /// came, and the same list `--print-config` writes.
    @Test func theSettingsInEffectSayWhetherAPasswordIsSetAndNeverWhatItIs() throws {
        let folder = try TemporaryFolder()
        try folder.write("password", Self.password)
        let fromFile = try load("broker: {username: u, password_file: password}", directory: folder.path)
        let fromEnvironment = try load(
            "broker: {username: u}", directory: folder.path, environment: ["GATT2MQTT_MQTT_PASSWORD": Self.password])
        let without = try load("broker: {username: u}", directory: folder.path)
        for (loaded, expected) in [(fromFile, "set"), (fromEnvironment, "set"), (without, "unset")] {
            guard case .object(let settings) = loaded.settingsJSON, case .object(let broker)? = settings["broker"]
            else {
                Issue.record("no broker section: \(loaded.settingsJSON.text)")
                continue
            }
            #expect(broker["password"] == .string(expected))
            #expect(broker["username"] == .string("u"))
            #expect(loaded.bridge.settingsInEffect == loaded.settingsJSON, "the gateway gets the same list")
            #expect(!loaded.settingsJSON.text.contains(Self.password))
        }
        guard case .object(let settings) = fromFile.settingsJSON, case .object(let broker)? = settings["broker"] else {
            return
        }
        #expect(broker["password_file"] == .string("\(folder.path)/password"), "a file's name is no secret")
        #expect(settings["http"] == .null, "the page is off")
        #expect(settings["log_level"] == .string("info"))
    }

    @Test func thePasswordComesFromTheFileWithoutTheTrailingNewline() throws {
        let folder = try TemporaryFolder()
        try folder.write("password", Self.password + "\r\n")
        let loaded = try load("broker: {username: u, password_file: password}", directory: folder.path)
        #expect(loaded.bridge.mqtt.password == Self.password)
        for text in renderings(loaded) {
            #expect(!text.contains(Self.password))
            #expect(text.contains("password_file: \"\(folder.path)/password\""))
        }
    }

    @Test func thePasswordComesFromTheEnvironmentOverTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("password", "from-the-file")
        let loaded = try load(
            "broker: {username: u, password_file: password}", directory: folder.path,
            environment: ["GATT2MQTT_MQTT_PASSWORD": Self.password])
        #expect(loaded.bridge.mqtt.password == Self.password)
        for text in renderings(loaded) {
            #expect(!text.contains(Self.password))
            #expect(!text.contains("from-the-file"))
            #expect(text.contains("# password: <redacted> (from GATT2MQTT_MQTT_PASSWORD)"))
        }
    }

    @Test func theEnvironmentsPasswordNeedsNoFile() throws {
        let loaded = try load(
            "", environment: ["GATT2MQTT_MQTT_USERNAME": "u", "GATT2MQTT_MQTT_PASSWORD": Self.password])
        #expect(loaded.bridge.mqtt.username == "u")
        #expect(loaded.bridge.mqtt.password == Self.password)
    }

    @Test func theSettingsNeverShowTheSecret() throws {
        let settings = try Settings.environment(["GATT2MQTT_MQTT_PASSWORD": Self.password])
        var dumped = ""
        dump(settings, to: &dumped)
        #expect(!dumped.contains(Self.password))
        #expect(!String(describing: settings).contains(Self.password))
        #expect(!String(reflecting: settings).contains(Self.password))
    }

    @Test func anEmptyPasswordFileIsAnError() throws {
        let folder = try TemporaryFolder()
        try folder.write("password", "\n")
        let error = try #require(loadError("broker: {username: u, password_file: password}", directory: folder.path))
        #expect(error.description == "broker.password_file: \(folder.path)/password is empty")
    }

    @Test func mqtt311NeedsAUserNameWithAPassword() throws {
        let error = try #require(
            loadError("broker: {protocol: 3.1.1}", environment: ["GATT2MQTT_MQTT_PASSWORD": Self.password]))
        #expect(error.key == "GATT2MQTT_MQTT_PASSWORD")
        #expect(error.message.contains("set broker.username"))
        #expect(!error.description.contains(Self.password))
        // MQTT 5 allows a password alone.
        #expect(try load("", environment: ["GATT2MQTT_MQTT_PASSWORD": Self.password]).bridge.mqtt.password != nil)
    }
}
