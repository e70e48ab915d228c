/// A setting that cannot be used, named the way the user wrote it: a key path of the file
/// (`a5.squeeze_newtons`), an environment variable (`GATT2MQTT_BROKER`) or a flag (`--adapter`).
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Where the setting came from: a key path, an environment variable, a flag, or the file itself.
    public let key: String
    /// What is wrong with it. Never holds a secret.
    public let message: String

    /// Creates an error.
    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    /// `key: message`, e.g. `a5.squeeze_newtons: must be a number greater than a5.release_newtons (5)`.
    public var description: String { "\(key): \(message)" }
}
