/// One vibration-channel configuration, the 18-byte FE03 command of belt.md §3.2.1.
///
/// Built through the validating initializer, a value is always sendable as is.
public struct ChannelConfiguration: Sendable, Equatable {
    /// Wire code for "use the belt's default intensity".
    public static let defaultIntensityCode: UInt16 = 0xAAAA

    /// Channel index, 0–5.
    public let channel: UInt8
    /// Vibration pattern.
    public let pattern: VibrationPattern
    /// Intensity 0–100 %, nil for the belt's default intensity.
    public let intensity: UInt8?
    /// How `orientationValue` is read.
    public let orientationType: OrientationType
    /// Mask, motor index (0–15) or degrees (0–359), already normalised.
    public let orientationValue: UInt16
    /// Pattern repetitions, nil to repeat forever.
    public let iterations: UInt8?
    /// Pattern period in milliseconds.
    public let periodMs: UInt16
    /// Offset into the pattern at start, in milliseconds.
    public let startTimeMs: UInt16
    /// Suspend the other channels while this one runs.
    public let exclusive: Bool
    /// Stop and clear the other channels.
    public let clearOthers: Bool

    /// Validates and normalises a configuration.
    /// - Throws: `FieldError` naming the field: channel 0–5, intensity 0–100, iterations 1–127
    ///   (nil = forever), periodMs 1–65535, startTimeMs 0–65535, a binary mask of at most 6 motors and
    ///   never with a mask-based pattern. Angles and bearings wrap mod 360, motor indices mod 16.
    public init(
        channel: Int, pattern: VibrationPattern, intensity: Int? = nil, orientationType: OrientationType,
        orientationValue: Int, iterations: Int? = nil, periodMs: Int, startTimeMs: Int = 0,
        exclusive: Bool = false, clearOthers: Bool = false
    ) throws(FieldError) {
        try FieldError.check(channel, in: 0...5, field: "channel")
        if let intensity { try FieldError.check(intensity, in: 0...100, field: "intensity") }
        if orientationType == .binaryMask && pattern.isMaskBased {
            throw FieldError(
                field: "pattern", message: "\(pattern.name) has its own motor mask and cannot use a binary mask")
        }
        let value = try normalizedOrientationValue(orientationValue, type: orientationType)
        if let iterations { try FieldError.check(iterations, in: 1...127, field: "iterations") }
        try FieldError.check(periodMs, in: 1...0xFFFF, field: "periodMs")
        try FieldError.check(startTimeMs, in: 0...0xFFFF, field: "startTimeMs")
        self.init(
            unchecked: UInt8(channel), pattern: pattern, intensity: intensity.map(UInt8.init),
            orientationType: orientationType, orientationValue: value, iterations: iterations.map(UInt8.init),
            periodMs: UInt16(periodMs), startTimeMs: UInt16(startTimeMs), exclusive: exclusive,
            clearOthers: clearOthers)
    }

    /// Stores fields as they are; for values decoded from the wire, which the simulator checks itself.
    init(
        unchecked channel: UInt8, pattern: VibrationPattern, intensity: UInt8?, orientationType: OrientationType,
        orientationValue: UInt16, iterations: UInt8?, periodMs: UInt16, startTimeMs: UInt16, exclusive: Bool,
        clearOthers: Bool
    ) {
        self.channel = channel
        self.pattern = pattern
        self.intensity = intensity
        self.orientationType = orientationType
        self.orientationValue = orientationValue
        self.iterations = iterations
        self.periodMs = periodMs
        self.startTimeMs = startTimeMs
        self.exclusive = exclusive
        self.clearOthers = clearOthers
    }

    /// The 18 bytes for FE03. Forever is sent as 0, as pybelt and Android do.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [channel, pattern.rawValue]
        bytes += (intensity.map(UInt16.init) ?? Self.defaultIntensityCode).littleEndianBytes
        bytes += [0, 0]
        bytes.append(orientationType.rawValue)
        bytes += orientationValue.littleEndianBytes
        bytes += [0, 0]
        bytes.append(iterations ?? 0)
        bytes += periodMs.littleEndianBytes
        bytes += startTimeMs.littleEndianBytes
        bytes += [exclusive ? 1 : 0, clearOthers ? 1 : 0]
        return bytes
    }
}
