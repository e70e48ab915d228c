import Bridge

/// Every setting's command-line flags, derived from the keys (`ConfigurationKey.flags`, `.switches`): the
/// executable declares none of them, so a new key is a flag without another line.
public enum SettingFlags {
    /// The settings `arguments` give: each value flag followed by its value (`--adapter-slots 3`) or with it after
    /// `=`, each switch (`--no-fleet`) alone. A list's flag may be repeated and adds to the list (`--adapter hci0
    /// --adapter hci1`); any other flag given twice counts once, the later.
    static func settings(_ arguments: [String]) throws(ConfigurationError) -> Settings {
        var settings = Settings()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else { throw unknown(argument) }
            let flag: String
            var text: String?
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                text = String(argument[argument.index(after: equals)...])
            } else {
                flag = argument
            }
            if let (key, value) = switches[flag] {
                guard text == nil else { throw ConfigurationError(key: flag, message: "takes no value") }
                settings[key] = Setting(value: .text(value), name: flag, source: .commandLine)
                continue
            }
            guard let key = byFlag[flag] else { throw unknown(flag) }
            if text == nil {
                guard let next = remaining.popFirst() else {
                    throw ConfigurationError(key: flag, message: "needs a value")
                }
                text = next
            }
            var value = try SettingText.value(text ?? "", kind: key.kind, name: flag)
            var name = flag
            if case .list(let added) = value, let earlier = settings[key], case .list(let given) = earlier.value {
                (value, name) = (.list(given + added), earlier.name)
            }
            settings[key] = Setting(value: value, name: name, source: .commandLine)
        }
        return settings
    }

    /// For `--help`: every flag with its value, the key it sets, its default and what it means, in lines short
    /// enough that the help's own wrapping (at 80 columns) leaves them alone.
    public static var help: String {
        var lines = [
            "Settings: each is also a key of the file and an environment variable",
            "(GATT2MQTT_<KEY>); --print-settings-reference lists them all.",
        ]
        for key in ConfigurationKey.allCases {
            if let flag = key.flag {
                let earlier = key.flags.dropFirst().map { " (or \($0))" }.joined()
                lines.append("  \(flag) <\(key.rule.placeholder ?? placeholder(key.kind))>\(earlier)")
                let values = key.rule.summary.map { " Values: \($0)." } ?? ""
                lines += wrapped(
                    "\(key.help)\(values) File: \(key.rawValue). Default: \(SettingsReference.defaultText(key)).")
            }
            for switchFlag in key.switches {
                lines.append("  \(switchFlag.flag)")
                lines += wrapped("\(switchFlag.help) File: \(key.rawValue): \(switchFlag.value).")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most 78 characters, each indented by six spaces.
    private static func wrapped(_ text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > 72 {
                lines.append("      " + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append("      " + line) }
        return lines
    }

    private static let byFlag: [String: ConfigurationKey] = Dictionary(
        uniqueKeysWithValues: ConfigurationKey.allCases.flatMap { key in key.flags.map { ($0, key) } })

    private static let switches: [String: (ConfigurationKey, String)] = Dictionary(
        uniqueKeysWithValues: ConfigurationKey.allCases.flatMap { key in
            key.switches.map { ($0.flag, (key, $0.value)) }
        })

    private static func unknown(_ flag: String) -> ConfigurationError {
        ConfigurationError(key: flag, message: "is not an option of gatt2mqtt (see --help)")
    }

    static func placeholder(_ kind: SettingKind) -> String {
        switch kind {
        case .number: "number"
        case .integer: "n"
        case .integers: "n,n"
        case .path: "file"
        case .list: "a,b"
        case .map: "k=v,k=v"
        case .text, .secret: "value"
        }
    }
}
