#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds the daemon's configuration from, in rising precedence: the defaults, the YAML file
/// (`--config FILE`, else `GATT2MQTT_CONFIG`), the environment variables, and the command line.
public enum ConfigurationLoader {
    /// The environment variable naming the configuration file when `--config` is not given.
    public static let configFileVariable = "GATT2MQTT_CONFIG"

    /// Loads and checks everything.
    /// - Parameters:
    ///   - commandLine: the flags given.
    ///   - environment: the process environment, or a dictionary in tests.
    ///   - hostName: the default gateway name is derived from it.
    /// - Throws: `ConfigurationError` naming the first setting that cannot be used.
    public static func load(
        commandLine: CommandLineSettings = CommandLineSettings(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        hostName: String = ProcessInfo.processInfo.hostName
    ) throws(ConfigurationError) -> LoadedConfiguration {
        var file = Settings()
        var path: String?
        if let (given, name) = configFile(commandLine: commandLine, environment: environment) {
            let absolute = given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
            let data = try ConfigurationResolver.read(absolute, name: name)
            guard let text = String(data: data, encoding: .utf8) else {
                throw ConfigurationError(key: name, message: "cannot read \(given): not UTF-8 text")
            }
            let directory = URL(fileURLWithPath: absolute).deletingLastPathComponent().path
            file = try ConfigurationFileReader.read(yaml: text, fileName: given, directory: directory)
            path = given
        }
        return try resolve(
            file: file, path: path, commandLine: commandLine, environment: environment, hostName: hostName,
            readsOptions: true)
    }

    /// Loads `yaml` as if it were the file; for tests and for checking a file's text. The options kept in the state
    /// directory are read only when `readsOptions`: a test names its own state directory for that.
    static func load(
        yaml: String, directory: String = FileManager.default.currentDirectoryPath,
        commandLine: CommandLineSettings = CommandLineSettings(), environment: [String: String] = [:],
        hostName: String = "testhost", readsOptions: Bool = false
    ) throws(ConfigurationError) -> LoadedConfiguration {
        let file = try ConfigurationFileReader.read(yaml: yaml, fileName: "(yaml)", directory: directory)
        return try resolve(
            file: file, path: nil, commandLine: commandLine, environment: environment, hostName: hostName,
            readsOptions: readsOptions)
    }

    private static func resolve(
        file: Settings, path: String?, commandLine: CommandLineSettings, environment: [String: String],
        hostName: String, readsOptions: Bool
    ) throws(ConfigurationError) -> LoadedConfiguration {
        var layers = ConfigurationLayers(
            file: file, path: path, environment: try .environment(environment),
            commandLine: try commandLine.settings(),
            hostName: hostName, systemdStateDirectory: environment["STATE_DIRECTORY"])
        guard readsOptions else { return try layers.resolve() }
        // The options changed over MQTT live in the state directory, which they cannot move (`OptionsChange`).
        let above = layers.file.overridden(by: layers.environment).overridden(by: layers.commandLine)
        let folder = ConfigurationResolver.stateFolder(
            setting: above.text(.stateDirectory), systemd: layers.systemdStateDirectory)
        let file = OptionsOverlay.path(in: folder)
        do {
            layers.options = try OptionsOverlay.read(stateDirectory: folder)
        } catch {
            layers.unusableOptions = UnusableOptions(file: file, reason: error.description)
        }
        do {
            return try layers.resolve()
        } catch  where !layers.options.members.isEmpty {
            // Options the file would refuse (written by another version, or by hand) are as damaged as a file that
            // is no JSON: the gateway starts without them. An error it has without them is the file's (or a flag's),
            // and is the one to fix.
            var without = layers
            without.options = OptionsOverlay()
            without.unusableOptions = UnusableOptions(file: file, reason: error.description)
            return try without.resolve()
        }
    }

    /// The file to read and the name it was given by (`--config` or `GATT2MQTT_CONFIG`).
    private static func configFile(
        commandLine: CommandLineSettings, environment: [String: String]
    ) -> (path: String, name: String)? {
        if let path = commandLine.configFile { return (path, "--config") }
        if let path = environment[configFileVariable], !path.isEmpty { return (path, configFileVariable) }
        return nil
    }
}
