/// One F0F5 IMU packet (activ5.md §5.2): accelerometer, gyroscope and device timestamp, 16 bytes, all LE.
/// Raw values are kept so that a packet re-encodes unchanged; the unit properties apply iOS's scaling.
public struct Activ5IMUSample: Sendable, Equatable {
    /// Packet length.
    public static let byteCount = 16
    /// Raw counts per g (0x0FFF = 1 g).
    public static let countsPerG = 4095.0
    /// Radians per second per raw gyro count: 0x0FFF = 250 °/s.
    public static let radiansPerSecondPerCount = 250.0 / 4095.0 * Double.pi / 180.0

    /// Raw accelerometer counts.
    public let rawAcceleration: Activ5RawAxes
    /// Raw gyroscope counts.
    public let rawAngularVelocity: Activ5RawAxes
    /// Timestamp in 15.25 µs ticks. iOS parses it signed, so it turns negative after about 9.1 h.
    public let rawTimestamp: Int32

    /// Acceleration in g.
    public var acceleration: Activ5Vector3 { Self.scaled(rawAcceleration, by: 1 / Self.countsPerG) }
    /// Angular velocity in rad/s (without iOS's optional ×1.15 client-side gain).
    public var angularVelocity: Activ5Vector3 { Self.scaled(rawAngularVelocity, by: Self.radiansPerSecondPerCount) }
    /// Device time in seconds since an unknown epoch.
    public var timestampSeconds: Double { Double(rawTimestamp) * Activ5Timing.secondsPerTick }

    /// Creates a sample from raw wire values.
    public init(rawAcceleration: Activ5RawAxes, rawAngularVelocity: Activ5RawAxes, rawTimestamp: Int32) {
        self.rawAcceleration = rawAcceleration
        self.rawAngularVelocity = rawAngularVelocity
        self.rawTimestamp = rawTimestamp
    }

    /// Creates a sample from physical values, rounded to the wire resolution and clamped to int16. The tick
    /// counter wraps like a free-running 32-bit counter would.
    public init(acceleration: Activ5Vector3, angularVelocity: Activ5Vector3, timestampSeconds: Double) {
        let ticks = (timestampSeconds / Activ5Timing.secondsPerTick).rounded(.down)
        let wrapped = ticks.isFinite ? Int64(ticks.clamped(to: -9e18...9e18)) : 0
        self.init(
            rawAcceleration: Self.raw(acceleration, per: 1 / Self.countsPerG),
            rawAngularVelocity: Self.raw(angularVelocity, per: Self.radiansPerSecondPerCount),
            rawTimestamp: Int32(truncatingIfNeeded: wrapped))
    }

    /// Decodes at least 16 bytes; extra bytes are ignored.
    public init(bytes: [UInt8]) throws(Activ5DecodeError) {
        let uuid = Activ5GATT.Characteristic.imu
        try Activ5DecodeError.requireLength(bytes, Self.byteCount, characteristic: uuid)
        func axes(at offset: Int) -> Activ5RawAxes {
            Activ5RawAxes(
                x: bytes.int16(at: offset) ?? 0, y: bytes.int16(at: offset + 2) ?? 0,
                z: bytes.int16(at: offset + 4) ?? 0)
        }
        self.init(rawAcceleration: axes(at: 0), rawAngularVelocity: axes(at: 6), rawTimestamp: bytes.int32(at: 12) ?? 0)
    }

    /// The 16 bytes the device notifies: ax, ay, az, gx, gy, gz (int16 LE), timestamp (int32 LE).
    public func encoded() -> [UInt8] {
        [rawAcceleration, rawAngularVelocity].flatMap {
            $0.x.littleEndianBytes + $0.y.littleEndianBytes + $0.z.littleEndianBytes
        }
            + rawTimestamp.littleEndianBytes
    }

    private static func scaled(_ raw: Activ5RawAxes, by factor: Double) -> Activ5Vector3 {
        Activ5Vector3(x: Double(raw.x) * factor, y: Double(raw.y) * factor, z: Double(raw.z) * factor)
    }

    private static func raw(_ vector: Activ5Vector3, per unit: Double) -> Activ5RawAxes {
        func count(_ value: Double) -> Int16 {
            let counts = (value / unit).rounded()
            return counts.isFinite ? Int16(counts.clamped(to: Double(Int16.min)...Double(Int16.max))) : 0
        }
        return Activ5RawAxes(x: count(vector.x), y: count(vector.y), z: count(vector.z))
    }
}
