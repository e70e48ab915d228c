/// The Bluetooth SIG's Running Speed and Cadence service (0x1814, RSCS 1.0) as a foot pod offers it, encoded from the
/// specification alone for the simulator, so that the shipped declaration that decodes it is checked against an
/// independent encoder (issue #59).
public enum RSCGATT {
    public static let service = BluetoothUUID.expand(0x1814)
    public static let measurement = BluetoothUUID.expand(0x2A53)
    public static let feature = BluetoothUUID.expand(0x2A54)
}

/// One RSC Measurement (GSS 3.187): a flags byte (bit 0 stride length present, bit 1 total distance present, bit 2
/// running rather than walking), the instantaneous speed (uint16, 1/256 m/s) and cadence (uint8, /min), then the
/// stride length (uint16, 0.01 m) and the total distance (uint32, 0.1 m), each only when its flag is set.
public struct RSCMeasurement: Sendable, Equatable {
    public var speed: UInt16
    public var cadence: UInt8
    public var strideLength: UInt16?
    public var totalDistance: UInt32?
    public var running: Bool

    public init(speed: UInt16, cadence: UInt8, strideLength: UInt16? = nil, totalDistance: UInt32? = nil, running: Bool)
    {
        (self.speed, self.cadence, self.strideLength, self.totalDistance) = (
            speed, cadence, strideLength, totalDistance
        )
        self.running = running
    }

    public func encoded() -> [UInt8] {
        let flags: UInt8 = (strideLength == nil ? 0 : 0x01) | (totalDistance == nil ? 0 : 0x02) | (running ? 0x04 : 0)
        var bytes = [flags] + speed.littleEndianBytes + [cadence]
        if let strideLength { bytes += strideLength.littleEndianBytes }
        if let totalDistance { bytes += totalDistance.littleEndianBytes }
        return bytes
    }
}

/// RSC Feature (uint16): bit 0 instantaneous stride length, bit 1 total distance, bit 2 walking or running status
/// supported.
public enum RSCFeature {
    public static func encoded(strideLength: Bool, totalDistance: Bool, walkingOrRunning: Bool) -> [UInt8] {
        UInt16((strideLength ? 1 : 0) | (totalDistance ? 2 : 0) | (walkingOrRunning ? 4 : 0)).littleEndianBytes
    }
}
