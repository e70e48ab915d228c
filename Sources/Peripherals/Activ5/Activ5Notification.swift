/// A value the device sends to the host: a notification, or the value of a read (F0F7, F0F8, 2A25, 2A19).
///
/// The bridge decodes with `decode(characteristic:bytes:)`; the simulator builds values and sends
/// `encoded()` on `characteristicUUID`.
public enum Activ5Notification: Sendable, Equatable {
    /// 5A01, a legacy ASCII message.
    case legacy(Activ5LegacyMessage)
    /// F0FE, raw force; see `newtons`.
    case force(raw: Int16)
    /// F0F5, an IMU sample.
    case imu(Activ5IMUSample)
    /// F0F7 (first) or F0F8 (second), a half of the device ID, NULs removed.
    case deviceIDPart(Activ5IdentifierHalf, String)
    /// 2A25, the serial number string.
    case serialNumber(String)
    /// 2A19, battery level in percent.
    case batteryLevel(UInt8)

    /// Decodes bytes received on a characteristic (UUID in any spelling).
    ///
    /// Battery: the SIG format is one byte, which is what iOS's "hex-encode everything and parse base 16"
    /// yields for a one-byte value; extra bytes (never seen) are ignored rather than read big-endian as iOS would.
    /// Force: only the first two bytes count, as on iOS.
    /// - Throws: `Activ5DecodeError` for empty or short packets, broken legacy frames, invalid UTF-8 or a
    ///   characteristic that carries nothing for the bridge.
    public static func decode(characteristic: String, bytes: [UInt8]) throws(Activ5DecodeError) -> Activ5Notification {
        try decoder(characteristic: characteristic)(bytes)
    }

    /// The decoder of one characteristic's values, with its UUID read once: a stream that delivers
    /// hundreds of values a second decodes each without normalising and comparing UUID strings.
    public static func decoder(characteristic: String) -> Decoder {
        let uuid = BluetoothUUID.normalized(characteristic)
        switch uuid {
        case Activ5GATT.Characteristic.legacyMessages:
            return { bytes throws(Activ5DecodeError) in .legacy(try Activ5LegacyMessage.decode(notification: bytes)) }
        case Activ5GATT.Characteristic.force:
            return { bytes throws(Activ5DecodeError) in
                try Activ5DecodeError.requireLength(bytes, 2, characteristic: uuid)
                return .force(raw: bytes.int16(at: 0) ?? 0)
            }
        case Activ5GATT.Characteristic.imu:
            return { bytes throws(Activ5DecodeError) in .imu(try Activ5IMUSample(bytes: bytes)) }
        case Activ5GATT.Characteristic.deviceIDPart1:
            return { bytes throws(Activ5DecodeError) in
                .deviceIDPart(.first, try Activ5DecodeError.text(bytes, characteristic: uuid))
            }
        case Activ5GATT.Characteristic.deviceIDPart2:
            return { bytes throws(Activ5DecodeError) in
                .deviceIDPart(.second, try Activ5DecodeError.text(bytes, characteristic: uuid))
            }
        case Activ5GATT.Characteristic.serialNumber:
            return { bytes throws(Activ5DecodeError) in
                .serialNumber(try Activ5DecodeError.text(bytes, characteristic: uuid))
            }
        case Activ5GATT.Characteristic.batteryLevel:
            return { bytes throws(Activ5DecodeError) in
                try Activ5DecodeError.requireLength(bytes, 1, characteristic: uuid)
                return .batteryLevel(bytes[0])
            }
        default:
            return { _ throws(Activ5DecodeError) in
                throw Activ5DecodeError(characteristic: uuid, reason: .unsupportedCharacteristic)
            }
        }
    }

    /// Decodes the values of one characteristic (see `decoder(characteristic:)`).
    public typealias Decoder = @Sendable ([UInt8]) throws(Activ5DecodeError) -> Activ5Notification

    /// Force in newtons, from an F0FE value (×0.27156315909) or a legacy `IS` frame (×1.08625263633);
    /// nil for everything else. This is what the double-squeeze detector is fed.
    public var newtons: Double? {
        switch self {
        case .force(let raw): Activ5ForceScale.newtons(newRaw: raw)
        case .legacy(let message): message.newtons
        default: nil
        }
    }

    /// The characteristic the value travels on.
    public var characteristicUUID: String {
        switch self {
        case .legacy: Activ5GATT.Characteristic.legacyMessages
        case .force: Activ5GATT.Characteristic.force
        case .imu: Activ5GATT.Characteristic.imu
        case .deviceIDPart(.first, _): Activ5GATT.Characteristic.deviceIDPart1
        case .deviceIDPart(.second, _): Activ5GATT.Characteristic.deviceIDPart2
        case .serialNumber: Activ5GATT.Characteristic.serialNumber
        case .batteryLevel: Activ5GATT.Characteristic.batteryLevel
        }
    }

    /// The bytes the device sends. Legacy frames carry no stale tail here; `Activ5LegacyFrameBuffer` adds one.
    public func encoded() -> [UInt8] {
        switch self {
        case .legacy(let message): message.encoded()
        case .force(let raw): raw.littleEndianBytes
        case .imu(let sample): sample.encoded()
        case .deviceIDPart(_, let text), .serialNumber(let text): Array(text.utf8)
        case .batteryLevel(let percent): [percent]
        }
    }
}
