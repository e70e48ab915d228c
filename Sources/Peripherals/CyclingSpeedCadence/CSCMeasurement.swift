/// The Bluetooth SIG's Cycling Speed and Cadence service (0x1816, CSCS 1.0), as its specification and the GATT
/// Specification Supplement (3.58 CSC Measurement, 3.59 CSC Feature, 3.196 Sensor Location) lay out its values:
/// written from the specification alone, for the simulator, so that the shipped declaration that decodes them is
/// checked against an independent encoder (issue #59).
public enum CSCGATT {
    public static let service = BluetoothUUID.expand(0x1816)
    public static let measurement = BluetoothUUID.expand(0x2A5B)
    public static let feature = BluetoothUUID.expand(0x2A5C)
    public static let sensorLocation = BluetoothUUID.expand(0x2A5D)
}

/// One CSC Measurement: a flags byte (bit 0: wheel revolution data present, bit 1: crank revolution data present),
/// then the cumulative wheel revolutions (uint32) and the last wheel event time (uint16, 1/1024 s), then the
/// cumulative crank revolutions (uint16) and the last crank event time (uint16, 1/1024 s), each pair only when its
/// bit is set; little-endian, as every SIG value.
public struct CSCMeasurement: Sendable, Equatable {
    public var wheel: (revolutions: UInt32, eventTime: UInt16)?
    public var crank: (revolutions: UInt16, eventTime: UInt16)?

    public init(wheel: (revolutions: UInt32, eventTime: UInt16)?, crank: (revolutions: UInt16, eventTime: UInt16)?) {
        self.wheel = wheel
        self.crank = crank
    }

    public static func == (lhs: CSCMeasurement, rhs: CSCMeasurement) -> Bool {
        lhs.wheel?.revolutions == rhs.wheel?.revolutions && lhs.wheel?.eventTime == rhs.wheel?.eventTime
            && lhs.crank?.revolutions == rhs.crank?.revolutions && lhs.crank?.eventTime == rhs.crank?.eventTime
    }

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [(wheel == nil ? 0 : 0x01) | (crank == nil ? 0 : 0x02)]
        if let wheel { bytes += wheel.revolutions.littleEndianBytes + wheel.eventTime.littleEndianBytes }
        if let crank { bytes += crank.revolutions.littleEndianBytes + crank.eventTime.littleEndianBytes }
        return bytes
    }
}

/// CSC Feature (uint16): bit 0 wheel revolution data supported, bit 1 crank revolution data supported, bit 2
/// multiple sensor locations supported.
public struct CSCFeature: Sendable, Equatable {
    public var wheel: Bool
    public var crank: Bool
    public var multipleLocations: Bool

    public init(wheel: Bool, crank: Bool, multipleLocations: Bool) {
        self.wheel = wheel
        self.crank = crank
        self.multipleLocations = multipleLocations
    }

    public func encoded() -> [UInt8] {
        UInt16((wheel ? 1 : 0) | (crank ? 2 : 0) | (multipleLocations ? 4 : 0)).littleEndianBytes
    }
}

/// The SC Control Point (2A55, CSCS 1.0 section 3.4): a write of an op code and its parameter, answered by an
/// indication of the response code 0x10, the request's op code and a result. What the simulator does with a write.
public enum SCControlPoint {
    public static let characteristic = BluetoothUUID.expand(0x2A55)

    public enum Request: Sendable, Equatable {
        /// 0x01: the cumulative wheel revolutions start from this value.
        case setCumulativeValue(UInt32)
        /// 0x03: the sensor is moved to this location.
        case updateSensorLocation(UInt8)
        /// Any other op code, or a parameter of the wrong length.
        case other(opCode: UInt8)
    }

    public typealias Result = ControlPointResult

    public static func request(_ bytes: [UInt8]) -> Request {
        guard let opCode = bytes.first else { return .other(opCode: 0) }
        switch (opCode, bytes.count) {
        case (0x01, 5):
            return .setCumulativeValue(bytes[1...4].reversed().reduce(0) { $0 << 8 | UInt32($1) })
        case (0x03, 2): return .updateSensorLocation(bytes[1])
        default: return .other(opCode: opCode)
        }
    }

    /// The indication that answers op code `opCode`.
    public static func response(to opCode: UInt8, _ result: Result) -> [UInt8] { [0x10, opCode, result.rawValue] }
}
