/// What was given on the command line. Settings' flags are passed on as given: the keys declare them
/// (`SettingFlags`), so the executable parses none of them and a new key needs no line there.
public struct CommandLineSettings: Sendable, Equatable {
    /// `--config FILE`.
    public var configFile: String?
    /// Every setting's flag, each followed by its value (`--broker mqtt://broker:1883`, `--cpr-range-mm=40,65`), or
    /// alone for a switch (`--no-fleet`).
    public var arguments: [String] = []

    /// Nothing given.
    public init() {}

    public init(configFile: String? = nil, arguments: [String]) {
        self.configFile = configFile
        self.arguments = arguments
    }

    func settings() throws(ConfigurationError) -> Settings { try SettingFlags.settings(arguments) }
}
