/// A value a heart rate sensor sends to the bridge: a notification of 2A37, or the value of a read of 2A38 or
/// 2A19. The bridge decodes with `decode(characteristic:bytes:)`, as for the other families.
public enum HeartRateNotification: Sendable, Equatable, Hashable {
    /// 2A37, a measurement.
    case measurement(HeartRateMeasurement)
    /// 2A38, where the sensor is worn.
    case bodySensorLocation(HeartRateBodySensorLocation)
    /// 2A19, the battery's charge.
    case batteryLevel(HeartRateBatteryLevel)

    /// Decodes bytes received on a characteristic (UUID in any spelling).
    /// - Throws: `HeartRateDecodeError` when the bytes do not decode, or `unsupportedCharacteristic` for a
    ///   characteristic that carries nothing for the bridge (2A39 is written, never read).
    public static func decode(characteristic: String, bytes: [UInt8]) throws(HeartRateDecodeError)
        -> HeartRateNotification
    {
        let uuid = BluetoothUUID.normalized(characteristic)
        switch uuid {
        case HeartRateGATT.Characteristic.measurement: return .measurement(try HeartRateMeasurement(bytes: bytes))
        case HeartRateGATT.Characteristic.bodySensorLocation:
            return .bodySensorLocation(try HeartRateBodySensorLocation(bytes: bytes))
        case HeartRateGATT.Characteristic.batteryLevel: return .batteryLevel(try HeartRateBatteryLevel(bytes: bytes))
        default: throw HeartRateDecodeError(characteristic: uuid, reason: .unsupportedCharacteristic)
        }
    }
}
