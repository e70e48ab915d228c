/// A write a simulated device refuses; the simulator answers it with the BlueZ error in `bluezErrorName`.
/// Each family names its reasons (`BeltRequestError = WriteRefusal<BeltWriteRefusalReason>`).
public struct WriteRefusal<Reason: WriteRefusalReason>: Error, Equatable, Sendable, CustomStringConvertible {
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
    public var bluezErrorName: String { reason.bluezErrorName }

    /// Characteristic and reason, for logs and the BlueZ error message.
    public var description: String { "rejected write to \(characteristic): \(reason)" }
}

/// Why a family's simulator refuses a write, and the BlueZ error that says so.
public protocol WriteRefusalReason: Equatable, Sendable {
    var bluezErrorName: String { get }
}
