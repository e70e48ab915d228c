import Bridge

/// The settings changed over MQTT (`request/options`), kept apart from the administrator's configuration file in
/// `<state_directory>/options.json`: the gateway never rewrites that file, and the file cannot silently lose what
/// was changed. It is read at every start, above the file and below the environment and the command line, and by
/// the same reader as the file (`JSONAsYAML`), so a value the file would refuse is refused here too, by its name.
/// `--print-config` marks each value it gives.
struct OptionsOverlay: Sendable, Equatable {
    static let fileName = StateFiles.options
    /// Far above any real set of options; a larger file is not read.
    static let sizeLimit = StateFiles.optionsLimit

    /// The settings as sent, nested as in the file (`{"devices":{"allow":[…]}}`).
    var members: [String: JSONValue] = [:]

    static func path(in stateDirectory: String) -> String { stateDirectory + "/" + fileName }

    /// The overlay kept in `stateDirectory`; empty when there is none. One that cannot be read or is no JSON object is
    /// refused here, with what is wrong, and set aside by the daemon (`UnusableOptions`).
    static func read(stateDirectory: String) throws(ConfigurationError) -> OptionsOverlay {
        let file = path(in: stateDirectory)
        let bytes: [UInt8]?
        do {
            bytes = try DurableFile.read(file, limit: sizeLimit)
        } catch {
            throw ConfigurationError(key: file, message: error.reason)
        }
        guard let bytes else { return OptionsOverlay() }
        guard bytes.count <= sizeLimit, case .object(let members)? = JSONValue.parse(bytes) else {
            throw ConfigurationError(key: file, message: "not a JSON object of settings")
        }
        return OptionsOverlay(members: members)
    }

    func write(stateDirectory: String) throws(ConfigurationError) {
        let file = Self.path(in: stateDirectory)
        do {
            try DurableFile.createFolder(of: file)
            try DurableFile.replace(file, with: Array((JSONValue.object(members).text + "\n").utf8))
        } catch {
            throw ConfigurationError(key: file, message: error.description)
        }
    }

    /// The settings it gives, read as the file's are; file names in it are refused (`OptionsChange`), so there is no
    /// folder to take them relative to.
    func settings() throws(ConfigurationError) -> Settings {
        var settings = try ConfigurationFileReader.read(
            yaml: JSONAsYAML.text(members), fileName: Self.fileName, directory: "/")
        for key in Array(settings.values.keys) { settings.values[key]?.source = .options }
        return settings
    }

    /// This overlay with `changes` laid over it: a value replaces the one kept, an object goes into the one kept,
    /// and null removes the key (back to the file's value, or the default).
    func merging(_ changes: [String: JSONValue]) -> OptionsOverlay {
        OptionsOverlay(members: Self.merge(changes, into: members))
    }

    private static func merge(_ changes: [String: JSONValue], into kept: [String: JSONValue]) -> [String: JSONValue] {
        var result = kept
        for (key, value) in changes {
            switch value {
            case .null: result.removeValue(forKey: key)
            case .object(let inner) where !inner.isEmpty:
                let current: [String: JSONValue] = if case .object(let members)? = kept[key] { members } else { [:] }
                let merged = merge(inner, into: current)
                result[key] = merged.isEmpty ? nil : .object(merged)
            default: result[key] = value
            }
        }
        return result
    }

    /// Every key path the overlay sets (`devices.allow`), for `--print-config` and the answer.
    var paths: Set<String> { Self.paths(members, prefix: "") }

    private static func paths(_ members: [String: JSONValue], prefix: String) -> Set<String> {
        var result: Set<String> = []
        for (key, value) in members {
            let path = prefix + key
            if case .object(let inner) = value, !inner.isEmpty, ConfigurationKey(rawValue: path) == nil {
                result.formUnion(paths(inner, prefix: path + "."))
            } else {
                result.insert(path)
            }
        }
        return result
    }
}
