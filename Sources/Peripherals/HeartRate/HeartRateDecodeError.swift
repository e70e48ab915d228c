/// A value from a heart rate sensor that cannot be decoded. Decoders throw this instead of trapping.
public typealias HeartRateDecodeError = DecodeFailure<HeartRateDecodeReason>

/// Why a value from a heart rate sensor could not be decoded.
///
/// The decoders are strict about framing (a length the flags do not explain means the bytes are not what we
/// think they are) and lenient about meaning (reserved flag bits and reserved locations decode, so that a
/// sensor built to a later revision of the specification still works).
public enum HeartRateDecodeReason: LengthDecodeReason {
    /// No bytes at all.
    case empty
    /// Fewer bytes than the fields the flags announce.
    case tooShort(minimum: Int, actual: Int)
    /// More bytes than an attribute value can hold (512): not a notification of a real sensor.
    case tooLong(maximum: Int, actual: Int)
    /// An RR-interval field whose length (given) is odd, so it cannot be a run of uint16 values.
    case oddRRIntervalLength(Int)
    /// Bytes (how many given) after the last field the format explains.
    case trailingBytes(Int)
    /// A battery level above 100 %; 101–255 are reserved.
    case batteryLevelOutOfRange(UInt8)
    /// A characteristic that carries nothing a heart rate sensor sends.
    case unsupportedCharacteristic
}

extension DecodeFailure where Reason == HeartRateDecodeReason {
    /// The byte of a one-byte value (Body Sensor Location, Battery Level); empty and longer values fail.
    static func singleByte(_ bytes: [UInt8], characteristic: String) throws(DecodeFailure) -> UInt8 {
        guard let byte = bytes.first else { throw DecodeFailure(characteristic: characteristic, reason: .empty) }
        guard bytes.count == 1 else {
            throw DecodeFailure(characteristic: characteristic, reason: .trailingBytes(bytes.count - 1))
        }
        return byte
    }
}
