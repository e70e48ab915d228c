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
