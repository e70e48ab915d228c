/// A family's section of the configuration (`a5:`, `cpr:`, …): its keys, its defaults, how given values
/// are checked and how the settings in effect are shown. The daemon's configuration reads every
/// registered family's section through this, so a new family's settings live in its own folder.
public protocol FamilySettings: Sendable {
    /// The family whose section this is; the section is named after it.
    static var family: DeviceFamily { get }
    /// Every key of the section, in the order the configuration in effect lists them.
    static var keys: [FamilySettingKey] { get }
    /// The defaults.
    init()
    /// The defaults with the given values applied, each checked; errors name the key by its path in the section.
    init(from values: some FamilySettingValues) throws(FamilySettingError)
    /// The settings in effect, by path in the section, in the order of `keys`.
    var effective: [EffectiveSetting] { get }
}

/// What a value of a setting is in the configuration file.
public enum SettingKind: Sendable {
    /// Any scalar, taken as written.
    case text
    /// A file name; relative names are relative to the configuration file.
    case path
    /// A plain (unquoted) decimal number.
    case number
    /// A plain (unquoted) whole number.
    case integer
    /// A list of scalars.
    case list
    /// A mapping of scalars to scalars.
    case map
    /// A list of whole numbers (`[40, 65]`; `40,65` on the command line).
    case integers
    /// Never in the file.
    case secret
}

/// One key of a family's section: `<family>.<path>` in the file, and on the command line `--<family>-<path>`
/// with dots and underscores as dashes and a final `_s` spelled `-seconds` (`a5.keepalive_s` is
/// `--a5-keepalive-seconds`).
public struct FamilySettingKey: Sendable, Equatable {
    /// The key's path inside the section, `squeeze_newtons` or `distance.reference_dbm`.
    public let path: String
    public let kind: SettingKind
    /// One line for `--help`.
    public let help: String

    public init(_ path: String, _ kind: SettingKind, help: String) {
        self.path = path
        self.kind = kind
        self.help = help
    }
}

/// A value of a family's section that cannot be used.
public struct FamilySettingError: Error, Sendable, Equatable {
    /// The key's path in the section.
    public let path: String
    /// Why, as the rest of a sentence after the key's name ("must be …").
    public let message: String

    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }
}

/// One setting in effect, for the configuration the daemon shows (as YAML in the file's own keys).
public struct EffectiveSetting: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        /// Printed as a number (`20`, not `20.0`).
        case number(Double)
        /// A word of a fixed set (`auto`), printed unquoted.
        case word(String)
        /// Free text or a file name, printed quoted.
        case text(String)
        case integers([Int])
        /// Not set: shown as a comment with why (`# profile: (built in)`).
        case unset(String)
    }

    public let path: String
    public let value: Value

    public init(_ path: String, _ value: Value) {
        self.path = path
        self.value = value
    }
}
