/// Firmware version read from FE01 (belt.md §4.6).
///
/// The clients disagree: pybelt and Android read a u16 LE, iOS reads byte 0 plus a "variant" in byte 2.
/// Both agree whenever byte 1 is 0, which holds for every version seen, so the u16 reading is used and
/// byte 2 is kept as the variant.
public struct BeltFirmwareInfo: Sendable, Equatable {
    /// Firmware version, e.g. 52.
    public let version: UInt16
    /// iOS's development "variant" (byte 2), if present.
    public let variant: UInt8?

    /// Creates firmware info.
    public init(version: UInt16, variant: UInt8? = 0) {
        self.version = version
        self.variant = variant
    }

    /// Decodes the read value; a single byte is accepted as the version.
    public init(bytes: [UInt8]) throws(BeltDecodeError) {
        try BeltDecodeError.requireLength(bytes, 1, characteristic: BeltGATT.Characteristic.firmwareInfo)
        self.init(version: bytes.uint16(at: 0) ?? UInt16(bytes[0]), variant: bytes.byte(at: 2))
    }

    /// The bytes a read returns, e.g. version 52 → `34 00 00`.
    public func encoded() -> [UInt8] {
        version.littleEndianBytes + (variant.map { [$0] } ?? [])
    }
}
