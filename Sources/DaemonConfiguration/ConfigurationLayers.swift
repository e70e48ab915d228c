import Bridge

/// What a configuration was made of, in rising precedence: the file, the options changed over MQTT, the
/// environment, the command line. Kept with the configuration, so that a change over MQTT is checked against the
/// same layers, and `--print-config` can say where a value came from.
struct ConfigurationLayers: Sendable {
    var file = Settings()
    /// The configuration file's name as given; nil without one.
    var path: String?
    var options = OptionsOverlay()
    /// The options file when it is there and cannot be used; `options` is then empty.
    var unusableOptions: UnusableOptions?
    var environment = Settings()
    var commandLine = Settings()
    var hostName: String
    var systemdStateDirectory: String?

    /// The settings of every layer, merged.
    func merged() throws(ConfigurationError) -> Settings {
        file.overridden(by: try options.settings()).overridden(by: environment).overridden(by: commandLine)
    }

    /// The configuration they make, checked.
    func resolve() throws(ConfigurationError) -> LoadedConfiguration {
        var loaded = try ConfigurationResolver(
            settings: try merged(), hostName: hostName, systemdStateDirectory: systemdStateDirectory
        )
        .resolve(file: path)
        loaded.layers = self
        // What the gateway's retained `info` says of its settings: the same list `--print-config` writes.
        loaded.bridge.settingsInEffect = loaded.settingsJSON
        return loaded
    }
}
