/// A value the band sends to the app: a depth or angle notification, or the value of a battery read
/// (cpr-band-and-grip.md §A.8). Every value is one byte.
///
/// The bridge decodes with `decode(characteristic:bytes:mapping:)`; the simulator builds values and
/// sends `encoded()` on `characteristicUUID`.
public enum CPRBandNotification: Sendable, Equatable, Hashable {
    /// FFF1 peak depth.
    case depth(CPRBandDepth)
    /// FFF2 wrist angle.
    case angle(CPRBandAngle)
    /// FFF3 battery (read).
    case battery(CPRBandBatteryLevel)

    /// Decodes bytes received on a characteristic (UUID in any spelling).
    /// - Throws: `CPRBandDecodeError` for an empty payload, an angle above 180, an unmapped battery byte
    ///   or a characteristic that carries nothing for the bridge (FFF4).
    public static func decode(
        characteristic: String, bytes: [UInt8], mapping: CPRBandBatteryMapping = .busLibrary
    ) throws(CPRBandDecodeError) -> CPRBandNotification {
        let uuid = BluetoothUUID.normalized(characteristic)
        switch uuid {
        case CPRBandGATT.Characteristic.depth: return .depth(try CPRBandDepth(bytes: bytes))
        case CPRBandGATT.Characteristic.angle: return .angle(try CPRBandAngle(bytes: bytes))
        case CPRBandGATT.Characteristic.battery:
            return .battery(try CPRBandBatteryLevel(bytes: bytes, mapping: mapping))
        default: throw CPRBandDecodeError(characteristic: uuid, reason: .unsupportedCharacteristic)
        }
    }

    /// The characteristic the value travels on.
    public var characteristicUUID: String {
        switch self {
        case .depth: CPRBandGATT.Characteristic.depth
        case .angle: CPRBandGATT.Characteristic.angle
        case .battery: CPRBandGATT.Characteristic.battery
        }
    }

    /// The one byte the band sends.
    public func encoded() -> [UInt8] {
        switch self {
        case .depth(let depth): depth.encoded()
        case .angle(let angle): angle.encoded()
        case .battery(let level): level.encoded()
        }
    }
}
