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
