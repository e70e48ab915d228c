/// The Bluetooth SIG's Cycling Power service (0x1818, CPS 1.1) as a crank power meter offers it, encoded from the
/// specification alone for the simulator, so that the shipped declaration that decodes and commands it is checked
/// against an independent encoder (issue #59).
public enum CyclingPowerGATT {
    public static let service = BluetoothUUID.expand(0x1818)
    public static let measurement = BluetoothUUID.expand(0x2A63)
    public static let feature = BluetoothUUID.expand(0x2A65)
    public static let sensorLocation = BluetoothUUID.expand(0x2A5D)
    public static let controlPoint = BluetoothUUID.expand(0x2A66)
}

/// One Cycling Power Measurement (GSS 3.65): a uint16 of flags, the instantaneous power (sint16, W), then each field
/// whose flag says it is there, in the flags' order: bit 0 pedal power balance (uint8, 1/2 %; bit 1 says it is the
/// left pedal's), bit 4 wheel revolutions (uint32) and last wheel event (uint16, 1/2048 s), bit 5 crank revolutions
/// (uint16) and last crank event (uint16, 1/1024 s), bit 11 accumulated energy (uint16, kJ). Torque, extreme
/// magnitudes and angles and dead spots (bits 2, 6-10) a simple crank meter leaves out.
public struct CyclingPowerMeasurement: Sendable, Equatable {
    public var power: Int16
    /// In 1/2 %, and whether it is the left pedal's share.
    public var balance: (halfPercent: UInt8, left: Bool)?
    public var wheel: (revolutions: UInt32, eventTime: UInt16)?
    public var crank: (revolutions: UInt16, eventTime: UInt16)?
    public var accumulatedEnergy: UInt16?

    public init(
        power: Int16, balance: (halfPercent: UInt8, left: Bool)? = nil,
        wheel: (revolutions: UInt32, eventTime: UInt16)? = nil, crank: (revolutions: UInt16, eventTime: UInt16)? = nil,
        accumulatedEnergy: UInt16? = nil
    ) {
        (self.power, self.balance, self.wheel, self.crank) = (power, balance, wheel, crank)
        self.accumulatedEnergy = accumulatedEnergy
    }

    public static func == (lhs: CyclingPowerMeasurement, rhs: CyclingPowerMeasurement) -> Bool {
        lhs.encoded() == rhs.encoded()
    }

    public func encoded() -> [UInt8] {
        var flags: UInt16 = 0
        var fields: [UInt8] = power.littleEndianBytes
        if let balance {
            flags |= 0x0001 | (balance.left ? 0x0002 : 0)
            fields.append(balance.halfPercent)
        }
        if let wheel {
            flags |= 1 << 4
            fields += wheel.revolutions.littleEndianBytes + wheel.eventTime.littleEndianBytes
        }
        if let crank {
            flags |= 1 << 5
            fields += crank.revolutions.littleEndianBytes + crank.eventTime.littleEndianBytes
        }
        if let accumulatedEnergy {
            flags |= 1 << 11
            fields += accumulatedEnergy.littleEndianBytes
        }
        return flags.littleEndianBytes + fields
    }
}

/// Cycling Power Feature (uint32, CPS 3.2): bit 0 pedal power balance, bit 2 wheel revolution data, bit 3 crank
/// revolution data, bit 7 accumulated energy, bit 12 crank length adjustment supported.
public enum CyclingPowerFeature {
    public static func encoded(
        balance: Bool, wheel: Bool, crank: Bool, accumulatedEnergy: Bool, crankLengthAdjustment: Bool
    ) -> [UInt8] {
        let bits: UInt32 =
            (balance ? 1 : 0) | (wheel ? 1 << 2 : 0) | (crank ? 1 << 3 : 0) | (accumulatedEnergy ? 1 << 7 : 0)
            | (crankLengthAdjustment ? 1 << 12 : 0)
        return bits.littleEndianBytes
    }
}

/// The Cycling Power Control Point (2A66, CPS 3.5): a write of an op code and its parameter, answered by an indication
/// of the response code 0x20, the request's op code, a result and, for a request of a value, that value.
public enum CyclingPowerControlPoint {
    public enum Request: Sendable, Equatable {
        /// 0x01 Set Cumulative Value: the wheel revolutions start from this value.
        case setCumulativeValue(UInt32)
        /// 0x04 Set Crank Length: uint16 in 0.5 mm.
        case setCrankLength(halfMillimetres: UInt16)
        /// 0x05 Request Crank Length: answered with the length after the result.
        case requestCrankLength
        /// Any other op code, or a parameter of the wrong length.
        case other(opCode: UInt8)
    }

    public typealias Result = ControlPointResult

    public static func request(_ bytes: [UInt8]) -> Request {
        guard let opCode = bytes.first else { return .other(opCode: 0) }
        switch (opCode, bytes.count) {
        case (0x01, 5): return .setCumulativeValue(bytes[1...4].reversed().reduce(0) { $0 << 8 | UInt32($1) })
        case (0x04, 3): return .setCrankLength(halfMillimetres: UInt16(bytes[1]) | UInt16(bytes[2]) << 8)
        case (0x05, 1): return .requestCrankLength
        default: return .other(opCode: opCode)
        }
    }

    /// The indication that answers op code `opCode`, with the value a request asked for after the result.
    public static func response(to opCode: UInt8, _ result: Result, value: [UInt8] = []) -> [UInt8] {
        [0x20, opCode, result.rawValue] + value
    }
}
