/// A pulse command, the 17-byte FE03 command of belt.md §3.2.2 (firmware ≥ 45).
public struct PulseConfiguration: Sendable, Equatable {
    /// Opcode in byte 0.
    public static let opcode: UInt8 = 0x40
    /// One-byte wire code for "use the belt's default intensity".
    public static let defaultIntensityCode: UInt8 = 0xAA

    /// Channel index, 0–5.
    public let channel: UInt8
    /// How `orientationValue` is read.
    public let orientationType: OrientationType
    /// Mask, motor index or degrees, already normalised.
    public let orientationValue: UInt16
    /// Intensity 0–100 %, nil for the belt's default.
    public let intensity: UInt8?
    /// Duration of one pulse in milliseconds.
    public let onDurationMs: UInt16
    /// Pulses per series.
    public let pulseIterations: UInt8
    /// Number of series, nil to repeat forever.
    public let seriesIterations: UInt8?
    /// Pulse period in milliseconds.
    public let pulsePeriodMs: UInt16
    /// Series period in milliseconds.
    public let seriesPeriodMs: UInt16
    /// Timer handling.
    public let timerOption: PulseTimerOption
    /// Suspend the other channels while this one runs.
    public let exclusive: Bool
    /// Stop and clear the other channels.
    public let clearOthers: Bool

    /// Validates and normalises a pulse command.
    /// - Throws: `FieldError` naming the field: channel 0–5, intensity 0–100, onDurationMs 1–65535,
    ///   pulseIterations 1–255 (pybelt's range), seriesIterations 1–127 (nil = forever), periods 1–65535,
    ///   masks of at most 6 motors.
    public init(
        channel: Int, orientationType: OrientationType, orientationValue: Int, intensity: Int? = nil,
        onDurationMs: Int, pulseIterations: Int = 1, seriesIterations: Int? = nil, pulsePeriodMs: Int,
        seriesPeriodMs: Int, timerOption: PulseTimerOption = .resetIfPeriodDiffers, exclusive: Bool = false,
        clearOthers: Bool = false
    ) throws(FieldError) {
        try FieldError.check(channel, in: 0...5, field: "channel")
        let value = try normalizedOrientationValue(orientationValue, type: orientationType)
        if let intensity { try FieldError.check(intensity, in: 0...100, field: "intensity") }
        try FieldError.check(onDurationMs, in: 1...0xFFFF, field: "onDurationMs")
        try FieldError.check(pulseIterations, in: 1...255, field: "pulseIterations")
        if let seriesIterations { try FieldError.check(seriesIterations, in: 1...127, field: "seriesIterations") }
        try FieldError.check(pulsePeriodMs, in: 1...0xFFFF, field: "pulsePeriodMs")
        try FieldError.check(seriesPeriodMs, in: 1...0xFFFF, field: "seriesPeriodMs")
        self.init(
            unchecked: UInt8(channel), orientationType: orientationType, orientationValue: value,
            intensity: intensity.map(UInt8.init), onDurationMs: UInt16(onDurationMs),
            pulseIterations: UInt8(pulseIterations), seriesIterations: seriesIterations.map(UInt8.init),
            pulsePeriodMs: UInt16(pulsePeriodMs), seriesPeriodMs: UInt16(seriesPeriodMs), timerOption: timerOption,
            exclusive: exclusive, clearOthers: clearOthers)
    }

    /// Stores fields as they are; for values decoded from the wire.
    init(
        unchecked channel: UInt8, orientationType: OrientationType, orientationValue: UInt16, intensity: UInt8?,
        onDurationMs: UInt16, pulseIterations: UInt8, seriesIterations: UInt8?, pulsePeriodMs: UInt16,
        seriesPeriodMs: UInt16, timerOption: PulseTimerOption, exclusive: Bool, clearOthers: Bool
    ) {
        self.channel = channel
        self.orientationType = orientationType
        self.orientationValue = orientationValue
        self.intensity = intensity
        self.onDurationMs = onDurationMs
        self.pulseIterations = pulseIterations
        self.seriesIterations = seriesIterations
        self.pulsePeriodMs = pulsePeriodMs
        self.seriesPeriodMs = seriesPeriodMs
        self.timerOption = timerOption
        self.exclusive = exclusive
        self.clearOthers = clearOthers
    }

    /// The 17 bytes for FE03.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [Self.opcode, channel, orientationType.rawValue]
        bytes += orientationValue.littleEndianBytes
        bytes.append(intensity ?? Self.defaultIntensityCode)
        bytes += onDurationMs.littleEndianBytes
        bytes += [pulseIterations, seriesIterations ?? 0]
        bytes += pulsePeriodMs.littleEndianBytes
        bytes += seriesPeriodMs.littleEndianBytes
        bytes += [timerOption.rawValue, exclusive ? 1 : 0, clearOthers ? 1 : 0]
        return bytes
    }
}
