/// A value from the grip that the profile cannot decode. Decoders throw this instead of trapping.
public typealias GripDecodeError = DecodeFailure<GripDecodeReason>

/// Why a value from the grip could not be decoded.
public enum GripDecodeReason: Equatable, Sendable {
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
