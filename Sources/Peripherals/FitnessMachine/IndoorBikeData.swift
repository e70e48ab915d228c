/// The Bluetooth SIG's Fitness Machine service (0x1826, FTMS 1.0) as a smart trainer offers it, encoded from the
/// specification alone for the simulator, so that the shipped declaration that decodes and commands it is checked
/// against an independent encoder (issue #59).
public enum FitnessMachineGATT {
    public static let service = BluetoothUUID.expand(0x1826)
    public static let feature = BluetoothUUID.expand(0x2ACC)
    public static let indoorBikeData = BluetoothUUID.expand(0x2AD2)
    public static let controlPoint = BluetoothUUID.expand(0x2AD9)
}

/// One Indoor Bike Data value (GSS 3.124): a uint16 of flags, then each field whose flag says it is there, in the
/// flags' order. Bit 0 is "more data": clear, the instantaneous speed (uint16, 0.01 km/h) is in this value. Bit 2
/// instantaneous cadence (uint16, 0.5 /min), bit 4 total distance (uint24, m), bit 5 resistance level (sint16), bit 6
/// instantaneous power (sint16, W), bit 9 heart rate (uint8, bpm), bit 11 elapsed time (uint16, s). The averages,
/// energy, metabolic equivalent and remaining time (bits 1, 3, 7, 8, 10, 12) a simple trainer leaves out.
public struct IndoorBikeData: Sendable, Equatable {
    public var speed: UInt16?
    public var cadence: UInt16?
    public var totalDistance: UInt32?
    public var resistanceLevel: Int16?
    public var power: Int16?
    public var heartRate: UInt8?
    public var elapsedTime: UInt16?

    public init(
        speed: UInt16?, cadence: UInt16? = nil, totalDistance: UInt32? = nil, resistanceLevel: Int16? = nil,
        power: Int16? = nil, heartRate: UInt8? = nil, elapsedTime: UInt16? = nil
    ) {
        (self.speed, self.cadence, self.totalDistance) = (speed, cadence, totalDistance)
        (self.resistanceLevel, self.power, self.heartRate, self.elapsedTime) = (
            resistanceLevel, power, heartRate, elapsedTime
        )
    }

    public func encoded() -> [UInt8] {
        var flags: UInt16 = speed == nil ? 0x0001 : 0
        var fields: [UInt8] = []
        if let speed { fields += speed.littleEndianBytes }
        if let cadence {
            flags |= 1 << 2
            fields += cadence.littleEndianBytes
        }
        if let totalDistance {
            flags |= 1 << 4
            fields += totalDistance.littleEndianBytes.prefix(3)
        }
        if let resistanceLevel {
            flags |= 1 << 5
            fields += resistanceLevel.littleEndianBytes
        }
        if let power {
            flags |= 1 << 6
            fields += power.littleEndianBytes
        }
        if let heartRate {
            flags |= 1 << 9
            fields.append(heartRate)
        }
        if let elapsedTime {
            flags |= 1 << 11
            fields += elapsedTime.littleEndianBytes
        }
        return flags.littleEndianBytes + fields
    }
}

/// Fitness Machine Feature (FTMS 4.3): two uint32, the machine's features (bit 1 cadence, bit 2 total distance, bit 7
/// resistance level, bit 10 heart rate, bit 12 elapsed time, bit 14 power measurement) and the targets it can be set
/// to (bit 2 resistance, bit 3 power).
public enum FitnessMachineFeature {
    public static func encoded(
        cadence: Bool, totalDistance: Bool, resistanceLevel: Bool, heartRate: Bool, elapsedTime: Bool, power: Bool,
        resistanceTarget: Bool, powerTarget: Bool
    ) -> [UInt8] {
        let features: UInt32 =
            (cadence ? 1 << 1 : 0) | (totalDistance ? 1 << 2 : 0) | (resistanceLevel ? 1 << 7 : 0)
            | (heartRate ? 1 << 10 : 0) | (elapsedTime ? 1 << 12 : 0) | (power ? 1 << 14 : 0)
        let targets: UInt32 = (resistanceTarget ? 1 << 2 : 0) | (powerTarget ? 1 << 3 : 0)
        return features.littleEndianBytes + targets.littleEndianBytes
    }
}

/// The Fitness Machine Control Point (2AD9, FTMS 4.16): a write of an op code and its parameter, answered by an
/// indication of the response code 0x80, the request's op code and a result. What the simulator does with a write.
public enum FitnessMachineControlPoint {
    public enum Request: Sendable, Equatable {
        /// 0x00: the client takes control; every other request but this one needs it.
        case requestControl
        /// 0x01: the machine's targets back to its own, and control released.
        case reset
        /// 0x04: uint8, resolution 0.1.
        case setTargetResistance(tenths: UInt8)
        /// 0x05: sint16, W.
        case setTargetPower(watts: Int16)
        /// 0x07.
        case startOrResume
        /// 0x08 with 0x01 (stop) or 0x02 (pause).
        case stopOrPause(UInt8)
        /// Any other op code, or a parameter of the wrong length.
        case other(opCode: UInt8)
    }

    public typealias Result = ControlPointResult

    public static func request(_ bytes: [UInt8]) -> Request {
        guard let opCode = bytes.first else { return .other(opCode: 0) }
        switch (opCode, bytes.count) {
        case (0x00, 1): return .requestControl
        case (0x01, 1): return .reset
        case (0x04, 2): return .setTargetResistance(tenths: bytes[1])
        case (0x05, 3): return .setTargetPower(watts: Int16(bitPattern: UInt16(bytes[1]) | UInt16(bytes[2]) << 8))
        case (0x07, 1): return .startOrResume
        case (0x08, 2): return .stopOrPause(bytes[1])
        default: return .other(opCode: opCode)
        }
    }

    /// The indication that answers op code `opCode`.
    public static func response(to opCode: UInt8, _ result: Result) -> [UInt8] { [0x80, opCode, result.rawValue] }
}
