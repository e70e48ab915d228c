/// A value from the device that cannot be decoded. Decoders throw this instead of trapping.
public struct Activ5DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why decoding failed.
    public enum Reason: Equatable, Sendable {
        /// No bytes at all.
        case empty
        /// Fewer bytes than the format needs.
        case tooShort(minimum: Int, actual: Int)
        /// A legacy notification without the 0x12 start byte.
        case missingFrameStart
        /// A legacy notification with no 0x13 after its 0x12.
        case missingFrameEnd
        /// A legacy message of a known type whose fields cannot be read, e.g. `IS12x/IS`.
        case malformedMessage(String)
        /// A string characteristic that is not valid UTF-8.
        case invalidText
        /// No device→host decoder exists for the characteristic.
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
    static func requireLength(_ bytes: [UInt8], _ minimum: Int, characteristic: String) throws(Activ5DecodeError) {
        if bytes.isEmpty { throw Activ5DecodeError(characteristic: characteristic, reason: .empty) }
        guard bytes.count >= minimum else {
            throw Activ5DecodeError(
                characteristic: characteristic, reason: .tooShort(minimum: minimum, actual: bytes.count))
        }
    }

    /// The UTF-8 text of `bytes` with every NUL removed (iOS strips the padding of uuid2 this way).
    static func text(_ bytes: [UInt8], characteristic: String) throws(Activ5DecodeError) -> String {
        guard let text = String(validating: bytes.filter { $0 != 0 }, as: UTF8.self) else {
            throw Activ5DecodeError(characteristic: characteristic, reason: .invalidText)
        }
        return text
    }
}
