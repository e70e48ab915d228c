/// A value from the belt that cannot be decoded. Decoders throw this instead of trapping.
public typealias BeltDecodeError = DecodeFailure<BeltDecodeReason>

/// Why a value from the belt could not be decoded.
public enum BeltDecodeReason: LengthDecodeReason {
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

extension DecodeFailure where Reason == BeltDecodeReason {
    /// The mode for `code`, or an `unknownMode` error.
    static func mode(_ code: UInt8, characteristic: String) throws(DecodeFailure) -> BeltMode {
        guard let mode = BeltMode(rawValue: code) else {
            throw BeltDecodeError(characteristic: characteristic, reason: .unknownMode(code))
        }
        return mode
    }
}
