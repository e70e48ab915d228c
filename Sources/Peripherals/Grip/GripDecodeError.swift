/// A value from the grip that the profile cannot decode. Decoders throw this instead of trapping.
public struct GripDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why decoding failed.
    public enum Reason: Equatable, Sendable {
        /// No bytes at all.
        case empty
        /// The payload is not as long as the profile's format needs.
        case unexpectedLength(expected: Int, actual: Int)
        /// An event byte the profile's table does not hold.
        case unknownEventByte(UInt8)
        /// A battery level above 100 %.
        case batteryLevelOutOfRange(UInt8)
        /// A firmware revision that is not `X.Y.Z`.
        case invalidFirmwareVersion(String)
        /// A string characteristic that is not UTF-8.
        case notUTF8
    }

    /// The characteristic the bytes came from (full lower-case UUID).
    public let characteristic: String
    /// Why decoding failed.
    public let reason: Reason

    /// Creates an error.
    public init(characteristic: String, reason: Reason) {
        self.characteristic = characteristic
        self.reason = reason
    }

    /// Characteristic and reason, for logs.
    public var description: String { "cannot decode \(characteristic): \(reason)" }
}

/// A grip profile that is inconsistent, or cannot encode what the simulator asked for.
public struct GripProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending profile field, named as in the Swift API and the JSON (e.g. `events`).
    public let field: String
    /// What is wrong with it.
    public let message: String

    /// Creates an error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }
}
