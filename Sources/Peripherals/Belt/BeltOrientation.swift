/// Orientation from FE0C (belt.md §4.5), 16 bytes.
public struct BeltOrientation: Sendable, Equatable {
    /// Source id iOS requires: only fusion packets count.
    public static let fusionSensorID: UInt8 = 0x02

    /// Source / sensor id (byte 0).
    public let sensorID: UInt8
    /// Belt heading in degrees from magnetic North, heading offset applied. Signed on the wire.
    public let beltHeading: Int16
    /// Control-box heading in degrees.
    public let boxHeading: Int16
    /// Control-box roll in degrees.
    public let boxRoll: Int16
    /// Control-box pitch in degrees.
    public let boxPitch: Int16
    /// Accuracy in degrees.
    public let accuracy: UInt16
    /// Magnetometer status, 0 (uncalibrated) … 3 (accurate), −1 unknown.
    public let magnetometerStatus: Int8
    /// Accelerometer status, same scale.
    public let accelerometerStatus: Int8
    /// Gyroscope status, same scale.
    public let gyroscopeStatus: Int8
    /// Fusion status, same scale.
    public let fusionStatus: Int8
    /// Whether the belt flags the orientation as possibly inaccurate (byte 15 ≠ 0).
    public let isInaccurate: Bool

    /// Creates an orientation; the sensor id defaults to the fusion id clients expect.
    public init(
        sensorID: UInt8 = BeltOrientation.fusionSensorID, beltHeading: Int16, boxHeading: Int16, boxRoll: Int16 = 0,
        boxPitch: Int16 = 0, accuracy: UInt16, magnetometerStatus: Int8 = 3, accelerometerStatus: Int8 = 3,
        gyroscopeStatus: Int8 = 3, fusionStatus: Int8 = 3, isInaccurate: Bool = false
    ) {
        self.sensorID = sensorID
        self.beltHeading = beltHeading
        self.boxHeading = boxHeading
        self.boxRoll = boxRoll
        self.boxPitch = boxPitch
        self.accuracy = accuracy
        self.magnetometerStatus = magnetometerStatus
        self.accelerometerStatus = accelerometerStatus
        self.gyroscopeStatus = gyroscopeStatus
        self.fusionStatus = fusionStatus
        self.isInaccurate = isInaccurate
    }

    /// Decodes at least 16 bytes; extra bytes are ignored.
    public init(bytes: [UInt8]) throws(BeltDecodeError) {
        try BeltDecodeError.requireLength(bytes, 16, characteristic: BeltGATT.Characteristic.orientation)
        self.init(
            sensorID: bytes[0], beltHeading: bytes.int16(at: 1) ?? 0, boxHeading: bytes.int16(at: 3) ?? 0,
            boxRoll: bytes.int16(at: 5) ?? 0, boxPitch: bytes.int16(at: 7) ?? 0, accuracy: bytes.uint16(at: 9) ?? 0,
            magnetometerStatus: bytes.int8(at: 11) ?? -1, accelerometerStatus: bytes.int8(at: 12) ?? -1,
            gyroscopeStatus: bytes.int8(at: 13) ?? -1, fusionStatus: bytes.int8(at: 14) ?? -1,
            isInaccurate: bytes[15] != 0)
    }

    /// The 16 bytes the belt notifies.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [sensorID]
        for value in [beltHeading, boxHeading, boxRoll, boxPitch] { bytes += value.littleEndianBytes }
        bytes += accuracy.littleEndianBytes
        bytes += [magnetometerStatus, accelerometerStatus, gyroscopeStatus, fusionStatus].map {
            UInt8(bitPattern: $0)
        }
        bytes.append(isInaccurate ? 1 : 0)
        return bytes
    }
}
