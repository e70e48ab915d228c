import Bridge
import Foundation
import Testing

@testable import DaemonConfiguration

/// A temporary folder for configuration files, removed when the test ends.
final class TemporaryFolder {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("gatt2mqtt-config-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to `name` in the folder and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// `environment` with systemd's STATE_DIRECTORY in `folder`: the loader reads the options kept in the state
/// directory, and its default is the machine's /var/lib/gatt2mqtt, which a test must not read.
func withOwnStateDirectory(_ environment: [String: String] = [:], in folder: TemporaryFolder) -> [String: String] {
    environment.merging(["STATE_DIRECTORY": folder.path + "/state"]) { $1 }
}

/// Loads `yaml` as the configuration file, with no environment and no flags unless given.
func load(
    _ yaml: String, directory: String = "/nonexistent", environment: [String: String] = [:],
    flags: CommandLineSettings = CommandLineSettings()
) throws(ConfigurationError) -> LoadedConfiguration {
    try ConfigurationLoader.load(
        yaml: yaml, directory: directory, commandLine: flags, environment: environment, hostName: "testhost")
}

/// The `devices` section of the settings in effect (what `info` and `--print-config` show) of `yaml`; empty, with an
/// issue recorded, when it has none.
func devicesInEffect(_ yaml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: JSONValue] {
    let settings = try load(yaml).bridge.settingsInEffect
    guard case .object(let members)? = settings, case .object(let devices)? = members["devices"] else {
        Issue.record("no devices section in \(String(describing: settings))", sourceLocation: sourceLocation)
        return [:]
    }
    return devices
}

/// The error loading `yaml` fails with; records an issue when it loads.
func loadError(
    _ yaml: String, directory: String = "/nonexistent", environment: [String: String] = [:],
    flags: CommandLineSettings = CommandLineSettings(), sourceLocation: SourceLocation = #_sourceLocation
) -> ConfigurationError? {
    do {
        let loaded = try load(yaml, directory: directory, environment: environment, flags: flags)
        Issue.record("expected an error, loaded:\n\(loaded)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// A value of the kind as one line of text holds it (a variable, a flag's argument), and what it reads as.
func sample(_ kind: SettingKind) -> (text: String, value: SettingValue) {
    switch kind {
    case .text, .path: ("x", .text("x"))
    case .number: ("2.5", .number(2.5))
    case .integer: ("7", .integer(7))
    case .integers: ("40, 65", .integers([40, 65]))
    case .list: ("a,b", .list(["a", "b"]))
    case .map:
        (
            "AA:BB:CC:DD:EE:FF=hall, 11:22:33:44:55:66=desk",
            .map(["AA:BB:CC:DD:EE:FF": "hall", "11:22:33:44:55:66": "desk"])
        )
    case .secret: ("s3cret", .secret(Secret(value: "s3cret")))
    }
}

/// These flags, as the command line gives them.
func flags(_ arguments: String...) -> CommandLineSettings { CommandLineSettings(arguments: arguments) }

/// Flags built in one expression.
func flags(_ build: (inout CommandLineSettings) -> Void) -> CommandLineSettings {
    var settings = CommandLineSettings()
    build(&settings)
    return settings
}

/// A key names itself by its path in test reports.
extension ConfigurationKey: CustomTestStringConvertible {
    public var testDescription: String { rawValue }
}
