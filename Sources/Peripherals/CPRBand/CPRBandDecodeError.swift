/// A value from the band that cannot be decoded. Decoders throw this instead of trapping.
public typealias CPRBandDecodeError = DecodeFailure<CPRBandDecodeReason>

/// Why a value from the band could not be decoded.
public enum CPRBandDecodeReason: Equatable, Sendable {
    /// No bytes at all.
    case empty
    /// An angle byte above 180, outside the documented −90…+90°.
    case angleOutOfRange(UInt8)
    /// A battery byte the mapping has no entry for (Bus ignores it and reports nothing).
    case unmappedBattery(UInt8)
    /// No band→app value travels on the characteristic.
    case unsupportedCharacteristic
}

extension DecodeFailure where Reason == CPRBandDecodeReason {
    /// The byte the Bus library uses: it reverses the payload and takes the first element, so the
    /// last byte of any non-empty payload (§A.8). Every client agrees when the payload is one byte.
    static func valueByte(_ bytes: [UInt8], characteristic: String) throws(DecodeFailure) -> UInt8 {
        guard let last = bytes.last else { throw CPRBandDecodeError(characteristic: characteristic, reason: .empty) }
        return last
    }
}
