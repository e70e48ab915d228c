/// Changes the gateway's settings over MQTT (`request/options`): the daemon's, which checks a change as the
/// configuration file is checked, keeps it in the state directory and applies the log levels; the gateway applies
/// the rest it can at run time (`LiveSettings`) and answers which need a restart.
public protocol GatewayOptionsHandler: Sendable {
    /// Checks `options` (nested as in the configuration file), keeps them, and applies what the daemon owns.
    /// - Throws: `CommandError` (`invalid_value`) naming the key that cannot be changed so, in the file's words.
    func change(_ options: [String: JSONValue]) async throws(CommandError) -> OptionsOutcome

    /// Checks the options of a backup about to be restored (`request/restore`) as a whole set that replaces the ones
    /// kept: by the file's rules, and none of them the administrator's alone.
    /// - Throws: `CommandError` (`invalid_value`) naming the first key that cannot be so.
    func checkRestored(_ options: [String: JSONValue]) throws(CommandError)
}

/// What a change of options did.
public struct OptionsOutcome: Sendable {
    /// The configuration the gateway would start with now.
    public var configuration: BridgeConfiguration
    /// The key paths whose value in effect changed, sorted.
    public var changed: [String]
    /// Those the daemon applied itself (the log levels).
    public var appliedByDaemon: Set<String>

    public init(configuration: BridgeConfiguration, changed: [String], appliedByDaemon: Set<String>) {
        self.configuration = configuration
        self.changed = changed
        self.appliedByDaemon = appliedByDaemon
    }
}
