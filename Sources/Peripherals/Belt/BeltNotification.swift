/// A value the belt sends to the app: a notification, or the value of a read (FE01, FE09).
///
/// The bridge decodes with `decode(characteristic:bytes:)`; the simulator builds values and sends
/// `encoded()` on `characteristicUUID`.
public enum BeltNotification: Sendable, Equatable {
    /// FE02 keep-alive `<?> <mode>`; every client acks it on FE02.
    case keepAlive(mode: BeltMode)
    /// FE06 parameter value.
    case parameter(BeltParameterValue)
    /// FE04 button press.
    case button(BeltButtonEvent)
    /// FE09 battery status.
    case battery(BeltBatteryStatus)
    /// FE0C orientation.
    case orientation(BeltOrientation)
    /// FE01 firmware version (read).
    case firmware(BeltFirmwareInfo)

    /// Byte 0 of the simulator's keep-alive; its meaning is unknown (belt.md §4.1) and clients ignore it.
    public static let keepAliveFirstByte: UInt8 = 0x01

    /// Decodes bytes received on a characteristic (UUID in any spelling).
    /// - Throws: `BeltDecodeError` for empty or short packets, unknown modes or buttons, or a
    ///   characteristic that carries nothing for the bridge.
    public static func decode(characteristic: String, bytes: [UInt8]) throws(BeltDecodeError) -> BeltNotification {
        let uuid = BluetoothUUID.normalized(characteristic)
        switch uuid {
        case BeltGATT.Characteristic.keepAlive:
            try BeltDecodeError.requireLength(bytes, 2, characteristic: uuid)
            return .keepAlive(mode: try BeltDecodeError.mode(bytes[1], characteristic: uuid))
        case BeltGATT.Characteristic.parameterNotification: return .parameter(try BeltParameterValue(bytes: bytes))
        case BeltGATT.Characteristic.buttonPress: return .button(try BeltButtonEvent(bytes: bytes))
        case BeltGATT.Characteristic.batteryStatus: return .battery(try BeltBatteryStatus(bytes: bytes))
        case BeltGATT.Characteristic.orientation: return .orientation(try BeltOrientation(bytes: bytes))
        case BeltGATT.Characteristic.firmwareInfo: return .firmware(try BeltFirmwareInfo(bytes: bytes))
        default: throw BeltDecodeError(characteristic: uuid, reason: .unsupportedCharacteristic)
        }
    }

    /// The characteristic the value travels on.
    public var characteristicUUID: String {
        switch self {
        case .keepAlive: BeltGATT.Characteristic.keepAlive
        case .parameter: BeltGATT.Characteristic.parameterNotification
        case .button: BeltGATT.Characteristic.buttonPress
        case .battery: BeltGATT.Characteristic.batteryStatus
        case .orientation: BeltGATT.Characteristic.orientation
        case .firmware: BeltGATT.Characteristic.firmwareInfo
        }
    }

    /// The bytes the belt sends.
    public func encoded() -> [UInt8] {
        switch self {
        case .keepAlive(let mode): [Self.keepAliveFirstByte, mode.rawValue]
        case .parameter(let value): value.encoded()
        case .button(let event): event.encoded()
        case .battery(let status): status.encoded()
        case .orientation(let orientation): orientation.encoded()
        case .firmware(let firmware): firmware.encoded()
        }
    }
}
