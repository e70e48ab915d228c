/// A write the simulated belt refuses. The simulator answers it with the BlueZ error in `bluezErrorName`.
public struct BeltRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why the write is refused.
    public enum Reason: Equatable, Sendable {
        /// No bytes.
        case empty
        /// The packet's length does not fit its opcode.
        case invalidLength(actual: Int)
        /// The first bytes match no known command.
        case unknownOpcode([UInt8])
        /// A field holds a value the belt does not know, named as in the Swift API.
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
        case .unknownOpcode: "org.bluez.Error.NotSupported"
        case .outOfRange: "org.bluez.Error.Failed"
        }
    }

    /// Characteristic and reason, for logs and the BlueZ error message.
    public var description: String { "rejected write to \(characteristic): \(reason)" }
}
