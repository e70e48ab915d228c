/// A write the simulated band refuses. The simulator answers it with the BlueZ error in `bluezErrorName`.
public struct CPRBandRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why the write is refused.
    public enum Reason: Equatable, Sendable {
        /// No bytes.
        case empty
        /// The characteristic is not writable (only FFF4 is).
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
        case .empty: "org.bluez.Error.InvalidValueLength"
        case .notWritable: "org.bluez.Error.NotPermitted"
        }
    }

    /// Characteristic and reason, for logs and the BlueZ error message.
    public var description: String { "rejected write to \(characteristic): \(reason)" }
}
