/// A value from a device that cannot be decoded: decoders throw this instead of trapping. Each family
/// names its reasons (`BeltDecodeError = DecodeFailure<BeltDecodeReason>`); the rest is shared.
public struct DecodeFailure<Reason: Equatable & Sendable>: Error, Equatable, Sendable, CustomStringConvertible {
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

/// The reasons of a family whose values have a minimum length.
public protocol LengthDecodeReason: Equatable, Sendable {
    /// No bytes at all.
    static var empty: Self { get }
    /// Fewer bytes than the value needs.
    static func tooShort(minimum: Int, actual: Int) -> Self
}

extension DecodeFailure where Reason: LengthDecodeReason {
    /// Fails unless `bytes` holds at least `minimum` bytes.
    static func requireLength(_ bytes: [UInt8], _ minimum: Int, characteristic: String) throws(DecodeFailure) {
        if bytes.isEmpty { throw DecodeFailure(characteristic: characteristic, reason: .empty) }
        guard bytes.count >= minimum else {
            throw DecodeFailure(
                characteristic: characteristic, reason: .tooShort(minimum: minimum, actual: bytes.count))
        }
    }
}
