import Bridge

/// A change of settings over MQTT (`request/options`), checked as the file is: the options are laid over the ones
/// kept (`OptionsOverlay`) and the whole configuration is made again from its layers, so a value the file would
/// refuse is refused with the same message and name. What the change would alter is listed by key path.
public struct OptionsChange: Sendable {
    /// The configuration with the change; `persist()` keeps its options.
    public let configuration: LoadedConfiguration
    /// The key paths whose value in effect changed (`devices.allow`, `a5.battery_s`), sorted.
    public let changed: [String]
    /// Where the options are kept.
    let stateDirectory: String

    /// Writes the options kept, so that they hold at the next start too.
    public func persist() throws(ConfigurationError) {
        try configuration.layers?.options.write(stateDirectory: stateDirectory)
    }

    /// Sections and keys that are the administrator's: the broker connection and its credentials, the gateway's
    /// name and topics, the state directory (which holds the options), the page's credentials, which requests are
    /// taken from the broker. A change there could cut the gateway off the broker, or move it, or stop it taking
    /// requests, with nobody able to undo it over MQTT.
    static let administratorsOnly = ["broker", "gateway", "base_topic", "state_directory", "http", "requests"]

    /// Refuses a key path that only the configuration file may set: the administrator's sections, and settings that
    /// name a file.
    static func refuseUnlessOption(_ path: String) throws(ConfigurationError) {
        let section = String(path.prefix { $0 != "." })
        if administratorsOnly.contains(section) {
            throw ConfigurationError(
                key: path, message: "cannot be changed over MQTT: it is the administrator's (the configuration file)")
        }
        if let key = ConfigurationKey(rawValue: path), key.kind == .path || key.kind == .secret {
            throw ConfigurationError(
                key: path,
                message: "names a file, which only the configuration file may (over MQTT it could "
                    + "make the gateway read any file it can)")
        }
    }
}

extension LoadedConfiguration {
    /// This configuration with `options` (nested as in the file; null puts a key back to the file's value or the
    /// default) laid over the options kept.
    /// - Throws: `ConfigurationError` naming the first key that cannot be changed so, or cannot hold its value.
    public func changing(_ options: [String: JSONValue]) throws(ConfigurationError) -> OptionsChange {
        guard let layers else { throw ConfigurationError(key: "options", message: "this configuration has no layers") }
        guard !options.isEmpty else {
            throw ConfigurationError(key: "options", message: "must name at least one setting, as in the file")
        }
        let requested = OptionsOverlay(members: options)
        // Unknown keys and wrong types first, in the file's words.
        _ = try OptionsOverlay(members: requested.members.filter { $0.value != .null }).settings()
        for path in requested.paths.sorted() {
            try OptionsChange.refuseUnlessOption(path)
            guard let key = ConfigurationKey(rawValue: path) else { continue }
            if let setter = layers.commandLine[key] ?? layers.environment[key] {
                throw ConfigurationError(
                    key: path, message: "is set by \(setter.name), which overrides options: change it there")
            }
        }
        var changedLayers = layers
        changedLayers.options = layers.options.merging(options)
        let changed = try changedLayers.resolve()
        let before = Dictionary(settingsInEffect.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(
            changed.settingsInEffect.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first })
        let paths = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        return OptionsChange(configuration: changed, changed: paths, stateDirectory: bridge.stateDirectory ?? "")
    }

    /// Checks the options of a backup (`request/restore`, `gatt2mqtt --restore`) as the set that would replace the
    /// options kept: read as the file is, none of them the administrator's or naming a file, and the configuration
    /// they make whole. A key that the environment or the command line sets is no error: it stays overridden, as
    /// it was when the backup was made.
    /// - Throws: `ConfigurationError` naming the first key that cannot be so.
    public func checkingRestored(_ options: [String: JSONValue]) throws(ConfigurationError) {
        guard let layers else { throw ConfigurationError(key: "options", message: "this configuration has no layers") }
        let restored = OptionsOverlay(members: options)
        _ = try OptionsOverlay(members: restored.members.filter { $0.value != .null }).settings()
        for path in restored.paths.sorted() { try OptionsChange.refuseUnlessOption(path) }
        var restoredLayers = layers
        restoredLayers.options = restored
        _ = try restoredLayers.resolve()
    }

    /// The key paths whose value comes from the options kept (`request/options`).
    var optionPaths: Set<String> { layers?.options.paths ?? [] }
}
