/// A value from the device that cannot be decoded. Decoders throw this instead of trapping.
public typealias Activ5DecodeError = DecodeFailure<Activ5DecodeReason>

/// Why a value from the device could not be decoded.
public enum Activ5DecodeReason: LengthDecodeReason {
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

extension DecodeFailure where Reason == Activ5DecodeReason {
    /// The UTF-8 text of `bytes` with every NUL removed (iOS strips the padding of uuid2 this way).
    static func text(_ bytes: [UInt8], characteristic: String) throws(DecodeFailure) -> String {
        guard let text = String(validating: bytes.filter { $0 != 0 }, as: UTF8.self) else {
            throw Activ5DecodeError(characteristic: characteristic, reason: .invalidText)
        }
        return text
    }
}
