/// Battery status from FE09 (belt.md §4.4). Raw wire values are kept so a packet re-encodes unchanged.
public struct BeltBatteryStatus: Sendable, Equatable {
    /// Seconds per unit of the time-to-empty/full field.
    public static let secondsPerTimeUnit = 5.625

    /// Power supply state; unrecognised codes read as `.unknown`.
    public let powerStatus: BeltPowerStatus
    /// Charge level in 8.8 fixed point (byte 2 = percent, byte 1 = fraction).
    public let levelRaw: UInt16
    /// Time to full while charging, otherwise time to empty, in units of 5.625 s.
    public let timeRaw: UInt16
    /// Current in mA; present when the packet has at least 9 bytes.
    public let currentMilliamps: Int16?
    /// Voltage in mV; present when the packet has at least 9 bytes.
    public let voltageMillivolts: UInt16?

    /// Charge level in percent, clamped to 100 like pybelt.
    public var levelPercent: Double { min(100, Double(levelRaw) / 256) }
    /// Time to full (charging) or to empty, in seconds.
    public var timeSeconds: Double { Double(timeRaw) * Self.secondsPerTimeUnit }

    /// Creates a status from raw wire values.
    public init(
        powerStatus: BeltPowerStatus, levelRaw: UInt16, timeRaw: UInt16, currentMilliamps: Int16? = nil,
        voltageMillivolts: UInt16? = nil
    ) {
        self.powerStatus = powerStatus
        self.levelRaw = levelRaw
        self.timeRaw = timeRaw
        self.currentMilliamps = currentMilliamps
        self.voltageMillivolts = voltageMillivolts
    }

    /// Creates a status from percent and seconds, rounded to the wire resolution and clamped to its range.
    public init(
        powerStatus: BeltPowerStatus, levelPercent: Double, timeSeconds: Double, currentMilliamps: Int16? = nil,
        voltageMillivolts: UInt16? = nil
    ) {
        self.init(
            powerStatus: powerStatus, levelRaw: Self.wireValue(levelPercent * 256),
            timeRaw: Self.wireValue(timeSeconds / Self.secondsPerTimeUnit), currentMilliamps: currentMilliamps,
            voltageMillivolts: voltageMillivolts)
    }

    /// Decodes at least 5 bytes (what iOS needs); current and voltage need 9.
    public init(bytes: [UInt8]) throws(BeltDecodeError) {
        try BeltDecodeError.requireLength(bytes, 5, characteristic: BeltGATT.Characteristic.batteryStatus)
        self.init(
            powerStatus: BeltPowerStatus(rawValue: bytes[0]) ?? .unknown, levelRaw: bytes.uint16(at: 1) ?? 0,
            timeRaw: bytes.uint16(at: 3) ?? 0, currentMilliamps: bytes.count >= 9 ? bytes.int16(at: 5) : nil,
            voltageMillivolts: bytes.count >= 9 ? bytes.uint16(at: 7) : nil)
    }

    /// The 9 bytes pybelt and Android need; absent current and voltage are sent as 0.
    public func encoded() -> [UInt8] {
        [powerStatus.rawValue] + levelRaw.littleEndianBytes + timeRaw.littleEndianBytes
            + (currentMilliamps ?? 0).littleEndianBytes + (voltageMillivolts ?? 0).littleEndianBytes
    }

    private static func wireValue(_ value: Double) -> UInt16 {
        guard value.isFinite else { return 0 }
        return UInt16(min(max(value.rounded(), 0), Double(UInt16.max)))
    }
}
