/// A value from the belt that cannot be decoded. Decoders throw this instead of trapping.
public struct BeltDecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why decoding failed.
    public enum Reason: Equatable, Sendable {
        /// No bytes at all.
        case empty
        /// Fewer bytes than the format needs.
        case tooShort(minimum: Int, actual: Int)
        /// A mode byte outside `BeltMode`.
        case unknownMode(UInt8)
        /// A button byte outside `BeltButton`.
        case unknownButton(UInt8)
        /// No belt→app decoder exists for the characteristic.
        case unsupportedCharacteristic
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

    /// Fails unless `bytes` holds at least `minimum` bytes.
    static func requireLength(_ bytes: [UInt8], _ minimum: Int, characteristic: String) throws(BeltDecodeError) {
        if bytes.isEmpty { throw BeltDecodeError(characteristic: characteristic, reason: .empty) }
        guard bytes.count >= minimum else {
            throw BeltDecodeError(
                characteristic: characteristic, reason: .tooShort(minimum: minimum, actual: bytes.count))
        }
    }

    /// The mode for `code`, or an `unknownMode` error.
    static func mode(_ code: UInt8, characteristic: String) throws(BeltDecodeError) -> BeltMode {
        guard let mode = BeltMode(rawValue: code) else {
            throw BeltDecodeError(characteristic: characteristic, reason: .unknownMode(code))
        }
        return mode
    }
}
