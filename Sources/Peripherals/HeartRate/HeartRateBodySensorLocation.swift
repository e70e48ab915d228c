/// Where the sensor is worn, from Body Sensor Location (2A38): one byte, read once per connection.
///
/// Decision: values 7–255 are reserved, and they decode to `.reserved(byte)` rather than fail. The location only
/// labels the readings, it changes nothing in how they decode; a strap built to a later revision that names a new
/// place should still be usable, and keeping the byte lets the bridge show it instead of hiding it.
public enum HeartRateBodySensorLocation: Sendable, Equatable, Hashable {
    /// 0, a place the specification does not name.
    case other
    /// 1, chest: where straps such as the Polar H10 and Garmin HRM sit.
    case chest
    /// 2, wrist.
    case wrist
    /// 3, finger.
    case finger
    /// 4, hand.
    case hand
    /// 5, ear lobe.
    case earLobe
    /// 6, foot.
    case foot
    /// 7–255, reserved for future use; the byte as sent.
    case reserved(UInt8)

    /// The location a byte names.
    public init(byte: UInt8) {
        switch byte {
        case 0: self = .other
        case 1: self = .chest
        case 2: self = .wrist
        case 3: self = .finger
        case 4: self = .hand
        case 5: self = .earLobe
        case 6: self = .foot
        default: self = .reserved(byte)
        }
    }

    /// Decodes a read of 2A38: exactly one byte.
    /// - Throws: `HeartRateDecodeError` for an empty or longer value.
    public init(bytes: [UInt8]) throws(HeartRateDecodeError) {
        let uuid = HeartRateGATT.Characteristic.bodySensorLocation
        self.init(byte: try HeartRateDecodeError.singleByte(bytes, characteristic: uuid))
    }

    /// The byte on the wire.
    public var byte: UInt8 {
        switch self {
        case .other: 0
        case .chest: 1
        case .wrist: 2
        case .finger: 3
        case .hand: 4
        case .earLobe: 5
        case .foot: 6
        case .reserved(let byte): byte
        }
    }
}
