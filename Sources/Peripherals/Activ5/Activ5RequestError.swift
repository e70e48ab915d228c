/// A write the simulated device refuses. The simulator answers it with the BlueZ error in `bluezErrorName`.
public struct Activ5RequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why the write is refused.
    public enum Reason: Equatable, Sendable {
        /// No bytes.
        case empty
        /// A 5A02 write that does not start with `'A'` (after an optional line feed).
        case missingCommandMarker
        /// A 5A02 command whose text matches no known command; the text is kept for logs.
        case unknownCommand(String)
        /// A write whose length does not fit the characteristic.
        case invalidLength(actual: Int)
        /// A value the device cannot hold, named as in the Swift API.
        case outOfRange(field: String, value: Int)
        /// The characteristic is not writable.
        case notWritable
    }

    /// The characteristic written to (full lower-case UUID).
    public let characteristic: String
    /// Why the write is refused.
    public let reason: Reason

    /// Creates an error.
    public init(characteristic: String, reason: Reason) {
        self.characteristic = characteristic
        self.reason = reason
    }

    /// The `org.bluez.Error.*` name a GATT server method should fail with.
    public var bluezErrorName: String {
        switch reason {
        case .empty, .invalidLength: "org.bluez.Error.InvalidValueLength"
        case .notWritable: "org.bluez.Error.NotPermitted"
        case .missingCommandMarker, .unknownCommand: "org.bluez.Error.NotSupported"
        case .outOfRange: "org.bluez.Error.Failed"
        }
    }

    /// Characteristic and reason, for logs and the BlueZ error message.
    public var description: String { "rejected write to \(characteristic): \(reason)" }
}
