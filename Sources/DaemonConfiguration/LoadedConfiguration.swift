import Bridge
import Logging
import MQTT
import WebUI

/// Where the broker password came from: shown instead of the password.
enum PasswordSource: Sendable, Equatable {
    /// `GATT2MQTT_MQTT_PASSWORD`.
    case environment(String)
    /// `broker.password_file`.
    case file(String)
}

/// The configuration in effect, checked.
///
/// Its description (and debug description, and mirror) is the configuration as YAML in the file's
/// own keys, with the password left out: safe to log, and a starting point for a file.
public struct LoadedConfiguration: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Everything the bridge needs.
    public var bridge: BridgeConfiguration
    /// The level to log at.
    public var logLevel: Logger.Level
    /// The level from which log lines go to `gatt2mqtt/<gateway>/log`; nil for none (`off`).
    public var logLevelMQTT: Logger.Level?
    /// The configuration file read, if any.
    public var file: String?
    /// The live page and `/metrics`; nil when off (the default).
    public var http: HTTPOptions?
    var passwordSource: PasswordSource?
    var httpPasswordFile: String?
    var httpPasswordHashFile: String?
    var httpTokenFile: String?
    /// `devices.declarations`: read by `loadDeclarations()`, not by the loader, so that reading a configuration
    /// reads no other file (a test's configuration never reads the machine's folder).
    public var declarationsFolder = DeclarationCatalog.defaultFolder
    /// The declared families and the declaration files left out, once `loadDeclarations()` has read them.
    public private(set) var declarationCatalog = DeclarationCatalog()
    /// What it was made of (`ConfigurationLayers.resolve` sets it).
    var layers: ConfigurationLayers?

    /// Reads the shipped declarations and the declarations folder's into `bridge.declarations`.
    public mutating func loadDeclarations() {
        declarationCatalog = DeclarationCatalog.load(folder: declarationsFolder)
        bridge.declarations = declarationCatalog.declarations
    }

    public var description: String { yaml() }
    public var debugDescription: String { yaml() }
    public var customMirror: Mirror { Mirror(self, children: ["configuration": yaml()], displayStyle: .struct) }

    /// What reading the configuration found worth saying at the start: keys of an earlier file version read under
    /// their new names (`ConfigurationMigration`).
    public var notices: [String] { layers?.file.notices ?? [] }

    /// The options file (`<state_directory>/options.json`) when the start found it and could not use it: the
    /// configuration is then the one without the options changed over MQTT.
    public var unusableOptions: UnusableOptions? { layers?.unusableOptions }

    /// The settings in effect as JSON, secrets as `set`/`unset` (the gateway's retained `info`).
    public var settingsJSON: JSONValue { EffectiveSettingsJSON.object(settingsInEffect) }

    private func yaml() -> String {
        let header = "# gatt2mqtt configuration in effect" + (file.map { " (file: \($0))" } ?? "")
        return ([header] + EffectiveSettingsYAML.lines(settingsInEffect, source: source(of:))).joined(separator: "\n")
            + "\n"
    }

    /// Where the value at `path` comes from when not from the file or the defaults: the flag or environment variable
    /// that set it, or `request/options` (kept in the state directory).
    private func source(of path: String) -> String? {
        guard let layers, let key = ConfigurationKey(rawValue: path) else { return nil }
        let given =
            layers.commandLine[key] ?? layers.commandLine[key.alternative ?? key]
            ?? layers.environment[key] ?? layers.environment[key.alternative ?? key]
        if let given { return given.name }
        return optionPaths.contains(path) ? "request/options" : nil
    }
}
