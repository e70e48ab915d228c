/// One byte the app wrote to FFF4, as the simulator classifies it (cpr-band-and-grip.md §A.5).
///
/// Every vendor client writes one byte per write (Bus, and the Android apps via hex strings such as
/// `"f1"`). The decoder also accepts a write that carries several bytes (e.g. `F5 32 3C` at once) and
/// treats it as that many one-byte writes in order; no client is known to do this, but accepting it
/// costs nothing. Classification needs no context: whether a byte is an argument of a running `F5`/`F6`
/// sequence is the state's decision (`CPRBandState` takes the `byte` of any request while it waits for
/// arguments, so a Latin-1 name byte such as `0xF1` is not mistaken for a command).
public enum CPRBandRequest: Sendable, Equatable, Hashable {
    /// A `CMD` byte, F1–F7 or FF; `F7` and `FF` both end with the band switched off.
    case command(CPRBandOpcode)
    /// A factory or manikin byte (B0, BA, C0, DD; §A.5.2). Accepted and recorded, without effect.
    case factory(CPRBandFactoryOpcode)
    /// Any other byte: an argument of `newRange` or `newName`, or noise.
    case value(UInt8)

    /// Classifies one byte.
    public init(byte: UInt8) {
        if let opcode = CPRBandOpcode(rawValue: byte) {
            self = .command(opcode)
        } else if let factory = CPRBandFactoryOpcode(rawValue: byte) {
            self = .factory(factory)
        } else {
            self = .value(byte)
        }
    }

    /// The byte as written.
    public var byte: UInt8 {
        switch self {
        case .command(let opcode): opcode.rawValue
        case .factory(let opcode): opcode.rawValue
        case .value(let byte): byte
        }
    }

    /// Parses a write to FFF4 into one request per byte, in order.
    /// - Throws: `CPRBandRequestError` for an empty write.
    public static func decode(bytes: [UInt8]) throws(CPRBandRequestError) -> [CPRBandRequest] {
        guard !bytes.isEmpty else {
            throw CPRBandRequestError(characteristic: CPRBandGATT.Characteristic.command, reason: .empty)
        }
        return bytes.map(CPRBandRequest.init(byte:))
    }

    /// Parses a write to any characteristic (UUID in any spelling); only FFF4 is writable.
    /// - Throws: `CPRBandRequestError` for an empty write or another characteristic.
    public static func decode(characteristic: String, bytes: [UInt8]) throws(CPRBandRequestError)
        -> [CPRBandRequest]
    {
        let uuid = BluetoothUUID.normalized(characteristic)
        guard uuid == CPRBandGATT.Characteristic.command else {
            throw CPRBandRequestError(characteristic: uuid, reason: .notWritable)
        }
        return try decode(bytes: bytes)
    }
}
