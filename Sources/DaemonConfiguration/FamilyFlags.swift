import Bridge
import Peripherals

/// The device families' command-line flags, derived from the keys they declare (`ConfigurationKey.familyFlag`):
/// parsed here because the executable cannot declare flags it does not know of.
public enum FamilyFlags {
    /// The settings `arguments` give: each flag followed by its value (`--a5-squeeze-newtons 25`), or
    /// with it after `=`; a flag given twice counts once, the later.
    static func settings(_ arguments: [String]) throws(ConfigurationError) -> Settings {
        var settings = Settings()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else {
                throw ConfigurationError(key: argument, message: "is not an option of gatt2mqtt (see --help)")
            }
            let flag: String
            let text: String
            if let equals = argument.firstIndex(of: "=") {
                flag = String(argument[..<equals])
                text = String(argument[argument.index(after: equals)...])
            } else {
                flag = argument
                guard let next = remaining.popFirst() else {
                    throw ConfigurationError(key: flag, message: "needs a value")
                }
                text = next
            }
            guard let key = byFlag[flag] else {
                throw ConfigurationError(key: flag, message: "is not an option of gatt2mqtt (see --help)")
            }
            settings[key] = Setting(value: try value(text, of: key, flag: flag), name: flag, source: .commandLine)
        }
        return settings
    }

    /// For `--help`: each family's flags with their values and what they set.
    public static var help: String {
        let lines = ConfigurationKey.familyKeys.compactMap { key -> String? in
            guard let flag = key.familyFlag, let declared = key.familyKey?.key else { return nil }
            return "  \(flag) <\(placeholder(key.kind))>   (file: \(key.rawValue))\n        \(declared.help)"
        }
        return "Device families' settings:\n" + lines.joined(separator: "\n")
    }

    private static let byFlag: [String: ConfigurationKey] = Dictionary(
        uniqueKeysWithValues: ConfigurationKey.familyKeys.compactMap { key in key.familyFlag.map { ($0, key) } })

    private static func value(_ text: String, of key: ConfigurationKey, flag: String) throws(ConfigurationError)
        -> SettingValue
    {
        guard key.kind != .map, key.kind != .secret else { preconditionFailure("\(key.rawValue) has no flag") }
        return try SettingText.value(text, kind: key.kind, name: flag)
    }

    private static func placeholder(_ kind: SettingKind) -> String {
        switch kind {
        case .number: "number"
        case .integer: "n"
        case .integers: "n,n"
        case .path: "file"
        case .list: "a,b"
        case .text, .map, .secret: "value"
        }
    }
}
