import Bridge

/// Reads the YAML configuration file into settings, checking every key and the type of every value.
///
/// The file is walked as a YAML node tree rather than decoded, so that an unknown key anywhere is an
/// error naming its path, and scalars are taken as written (`protocol: 3.1.1`, an address such as
/// `10:20:30:40:50:59` that YAML 1.1 would read as a number) rather than guessed at. `YAMLParser`
/// reads the part of YAML a configuration needs and rejects the rest by name.
enum ConfigurationFileReader {
    /// The settings of `yaml`; relative file names in it are taken relative to `directory`. A file of an earlier
    /// `version` has its renamed keys read under their new names (`migration`), with a notice each.
    /// - Parameter fileName: names the file in errors about the document as a whole.
    static func read(
        yaml: String, fileName: String, directory: String, migration: ConfigurationMigration = .fileFormat
    ) throws(ConfigurationError) -> Settings {
        let root: YAMLNode?
        do {
            root = try YAMLParser.parse(yaml)
        } catch {
            throw ConfigurationError(key: fileName, message: "not valid YAML: \(error)")
        }
        var settings = Settings()
        guard let root, !isNull(root) else { return settings }
        guard case .mapping(let mapping) = root.content else {
            throw ConfigurationError(key: fileName, message: "must be a mapping of keys (broker:, adapter:, …)")
        }
        var version = migration.current
        if let pair = mapping.first(where: { if case .scalar("version", _) = $0.key.content { true } else { false } }) {
            version = try integer(pair.value, path: "version")
            guard (1...migration.current).contains(version) else {
                throw error(
                    "version", "is \(version); this gatt2mqtt reads versions 1 to \(migration.current) of the file",
                    at: pair.value)
            }
        }
        let keys = mapping.filter { if case .scalar("version", _) = $0.key.content { false } else { true } }
        let reading = Reading(directory: directory, version: version, migration: migration)
        try read(keys, section: "", reading: reading, into: &settings)
        return settings
    }

    /// What every key of one file is read with.
    private struct Reading {
        let directory: String
        let version: Int
        let migration: ConfigurationMigration
    }

    private static func read(
        _ mapping: [YAMLPair], section: String, reading: Reading, into settings: inout Settings
    ) throws(ConfigurationError) {
        let directory = reading.directory
        var seen: Set<String> = []
        for pair in mapping {
            let (keyNode, valueNode) = (pair.key, pair.value)
            guard case .scalar(let name, _) = keyNode.content else {
                throw error(section.isEmpty ? "(top level)" : section, "keys must be plain names", at: keyNode)
            }
            let written = section.isEmpty ? name : section + "." + name
            guard seen.insert(name).inserted else { throw error(written, "given twice", at: keyNode) }
            let (path, notice) = reading.migration.migrated(written, from: reading.version)
            if let notice { settings.notices.append(notice) }
            if let key = ConfigurationKey(rawValue: path) {
                guard key.isInFile else {
                    throw error(
                        path, "not allowed in the file: use broker.password_file or GATT2MQTT_MQTT_PASSWORD",
                        at: keyNode)
                }
                if isNull(valueNode) { continue }
                // Named as written: an error about a renamed key names what the file says.
                let value = try read(valueNode, as: key.kind, path: written, directory: directory)
                settings[key] = Setting(value: value, name: written, source: .file)
            } else if ConfigurationKey.sections.contains(path) {
                if isNull(valueNode) { continue }
                guard case .mapping(let inner) = valueNode.content else {
                    throw error(path, "must be a mapping (\(takes(path)))", at: valueNode)
                }
                try read(inner, section: path, reading: reading, into: &settings)
            } else {
                throw error(written, "unknown key (\(takes(section)))", at: keyNode)
            }
        }
    }

    /// `a5 takes squeeze_newtons, release_newtons, …`.
    private static func takes(_ section: String) -> String {
        let children = ConfigurationKey.children(of: section)
        let owner = section.isEmpty ? "the top level" : section
        return children.isEmpty ? "\(owner) takes no keys yet" : "\(owner) takes " + children.joined(separator: ", ")
    }

    private static func read(
        _ node: YAMLNode, as kind: SettingKind, path: String, directory: String
    ) throws(ConfigurationError) -> SettingValue {
        switch kind {
        case .text:
            return .text(try text(node, path: path))
        case .path:
            let name = try text(node, path: path)
            guard !name.isEmpty else { throw error(path, "must be a file name", at: node) }
            return .text(name.hasPrefix("/") ? name : directory + "/" + name)
        case .number:
            return .number(try number(node, path: path))
        case .integer:
            return .integer(try integer(node, path: path))
        case .list:
            guard case .sequence(let sequence) = node.content else { throw error(path, "must be a list", at: node) }
            var items: [String] = []
            for (index, item) in sequence.enumerated() { items.append(try text(item, path: "\(path)[\(index)]")) }
            return .list(items)
        case .integers:
            guard case .sequence(let sequence) = node.content else { throw error(path, "must be a list", at: node) }
            var items: [Int] = []
            for (index, item) in sequence.enumerated() { items.append(try integer(item, path: "\(path)[\(index)]")) }
            return .integers(items)
        case .map:
            guard case .mapping(let mapping) = node.content else { throw error(path, "must be a mapping", at: node) }
            var entries: [String: String] = [:]
            for pair in mapping {
                let (keyNode, valueNode) = (pair.key, pair.value)
                let key = try text(keyNode, path: path)
                guard entries[key] == nil else { throw error("\(path).\(key)", "given twice", at: keyNode) }
                entries[key] = try text(valueNode, path: "\(path).\(key)")
            }
            return .map(entries)
        case .secret:
            throw error(path, "not allowed in the file", at: node)
        }
    }

    private static func text(_ node: YAMLNode, path: String) throws(ConfigurationError) -> String {
        switch node.content {
        case .scalar(let text, _): return text
        case .mapping: throw error(path, "must be a single value, not a mapping", at: node)
        case .sequence: throw error(path, "must be a single value, not a list", at: node)
        }
    }

    private static func number(_ node: YAMLNode, path: String) throws(ConfigurationError) -> Double {
        let text = try plainScalar(node, path: path, what: "a number")
        guard let value = Double(text), value.isFinite, text.allSatisfy({ "0123456789+-.eE".contains($0) }) else {
            throw error(path, "must be a number, not '\(text)'", at: node)
        }
        return value
    }

    private static func integer(_ node: YAMLNode, path: String) throws(ConfigurationError) -> Int {
        let text = try plainScalar(node, path: path, what: "a whole number")
        guard let value = Int(text) else { throw error(path, "must be a whole number, not '\(text)'", at: node) }
        return value
    }

    /// The text of an unquoted scalar: `"20"` is a string, not a number.
    private static func plainScalar(_ node: YAMLNode, path: String, what: String) throws(ConfigurationError) -> String {
        let text = try self.text(node, path: path)
        guard case .scalar(_, .plain) = node.content else {
            throw error(path, "must be \(what), not the quoted string \"\(text)\"", at: node)
        }
        return text
    }

    /// `key:` with nothing, `~` or `null`: the same as leaving the key out.
    private static func isNull(_ node: YAMLNode) -> Bool {
        guard case .scalar(let text, .plain) = node.content else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(text)
    }

    private static func error(_ path: String, _ message: String, at node: YAMLNode) -> ConfigurationError {
        ConfigurationError(key: path, message: message + " (line \(node.line))")
    }
}
