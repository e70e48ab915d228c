/// Where a setting came from; later sources override earlier ones.
enum SettingSource: Int, Comparable, Sendable {
    case file
    /// `request/options`, kept in the state directory (`OptionsOverlay`).
    case options
    case environment
    case commandLine

    static func < (lhs: SettingSource, rhs: SettingSource) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A string that must never be shown: every description of it is `<redacted>`.
struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

/// A value as read, before it is checked.
enum SettingValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case integer(Int)
    case list([String])
    case map([String: String])
    case integers([Int])
    case secret(Secret)
}

/// One value and the name it was given by, for error messages.
struct Setting: Sendable, Equatable {
    var value: SettingValue
    /// `a5.squeeze_newtons`, `GATT2MQTT_BROKER` or `--broker`.
    var name: String
    var source: SettingSource
}

/// The settings of one source, or of several merged.
struct Settings: Sendable, Equatable {
    var values: [ConfigurationKey: Setting] = [:]
    /// What reading them found worth saying (a renamed key of an earlier file version), for the start's log.
    var notices: [String] = []

    subscript(key: ConfigurationKey) -> Setting? {
        get { values[key] }
        set { values[key] = newValue }
    }

    /// These settings with `higher`'s replacing any of the same key.
    func overridden(by higher: Settings) -> Settings {
        Settings(values: values.merging(higher.values) { _, new in new }, notices: notices + higher.notices)
    }

    /// The keys' variables (`ConfigurationKey.environmentVariables`) found in `environment`, each read by its key's
    /// kind; empty ones count as unset. A key's own variable wins over its legacy one.
    static func environment(_ environment: [String: String]) throws(ConfigurationError) -> Settings {
        var settings = Settings()
        for key in ConfigurationKey.allCases {
            guard
                let variable = key.environmentVariables.first(where: { environment[$0].map { !$0.isEmpty } ?? false }),
                let text = environment[variable]
            else { continue }
            let value = try SettingText.value(text, kind: key.kind, name: variable)
            settings[key] = Setting(value: value, name: variable, source: .environment)
        }
        return settings
    }
}

extension Settings {
    /// The key's value if it is of that type (the file reader and the flags give each key its kind's).
    func text(_ key: ConfigurationKey) -> String? {
        if case .text(let text)? = self[key]?.value { text } else { nil }
    }

    func integer(_ key: ConfigurationKey) -> Int? {
        if case .integer(let value)? = self[key]?.value { value } else { nil }
    }

    /// Any number, infinities and NaN included: the caller says why those are refused.
    func number(_ key: ConfigurationKey) -> Double? {
        if case .number(let value)? = self[key]?.value { value } else { nil }
    }

    func integers(_ key: ConfigurationKey) -> [Int]? {
        if case .integers(let values)? = self[key]?.value { values } else { nil }
    }

    func list(_ key: ConfigurationKey) -> [String]? {
        if case .list(let items)? = self[key]?.value { items } else { nil }
    }

    func map(_ key: ConfigurationKey) -> [String: String]? {
        if case .map(let entries)? = self[key]?.value { entries } else { nil }
    }

    /// The key's name as the user gave it (`a5.squeeze_newtons`, `GATT2MQTT_BROKER` or `--broker`), for messages.
    func name(_ key: ConfigurationKey) -> String { self[key]?.name ?? key.rawValue }
}
