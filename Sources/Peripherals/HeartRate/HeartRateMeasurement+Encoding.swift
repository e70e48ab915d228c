extension HeartRateMeasurement {
    /// The largest value the uint16 heart rate and energy expended fields hold.
    static let largestUInt16Field = Int(UInt16.max)

    /// The Heart Rate Measurement notification (2A37) a sensor sends for this measurement, in the format
    /// `init(bytes:)` reads: a flags byte, the heart rate, the energy expended if present, then the RR intervals
    /// if any, oldest first. Multi-byte fields are little-endian; the reserved flag bits 5–7 are always clear.
    ///
    /// Decisions, so that the result is always a value a receiver accepts:
    /// - The heart rate is a uint8 when it fits (0–255) and a uint16 above, as the specification recommends. A
    ///   rate outside the uint16 range is clamped to 0–65535: a negative rate becomes 0, a larger one 65535.
    /// - The energy expended is clamped the same way; the specification itself asks a sensor to keep sending
    ///   0xFFFF once the count passes it, until the control point resets it.
    /// - The value never exceeds `maximumByteCount` (512). When the RR intervals do not all fit after the other
    ///   fields (more than 253 to 255 of them, depending on the heart rate's width and on energy expended), the
    ///   newest that fit are sent and the oldest are dropped: an RR interval is worth most while it is recent.
    ///
    /// Within those bounds `HeartRateMeasurement(bytes: m.encoded()) == m`.
    public func encoded() -> [UInt8] {
        let heartRate = UInt16(beatsPerMinute.clamped(to: 0...Self.largestUInt16Field))
        let energy = energyExpendedKilojoules.map { UInt16($0.clamped(to: 0...Self.largestUInt16Field)) }
        let flags = HeartRateMeasurementFlags(
            uint16HeartRate: heartRate > UInt8.max, contact: contact, energyExpended: energy != nil,
            rrIntervals: !rawRRIntervals.isEmpty)

        var bytes = [flags.rawValue]
        bytes += flags.hasUInt16HeartRate ? heartRate.littleEndianBytes : [UInt8(heartRate)]
        if let energy { bytes += energy.littleEndianBytes }
        let rrCapacity = (Self.maximumByteCount - flags.fixedFieldsByteCount) / 2
        for interval in rawRRIntervals.suffix(rrCapacity) { bytes += interval.littleEndianBytes }
        return bytes
    }
}

extension HeartRateMeasurementFlags {
    /// The flags that announce the given fields, with the contact status in bits 1–2 and the reserved bits clear.
    init(uint16HeartRate: Bool, contact: HeartRateSensorContact, energyExpended: Bool, rrIntervals: Bool) {
        var rawValue = contact.flagBits
        if uint16HeartRate { rawValue |= 0x01 }
        if energyExpended { rawValue |= 0x08 }
        if rrIntervals { rawValue |= 0x10 }
        self.init(rawValue: rawValue)
    }
}

extension HeartRateSensorContact {
    /// Bits 1–2 of a flags byte for this status, the inverse of `init(flags:)`. A sensor that cannot tell sends
    /// both bits clear, the form the specification gives for a sensor without the feature.
    var flagBits: UInt8 {
        switch self {
        case .notSupported: 0b000
        case .notDetected: 0b100
        case .detected: 0b110
        }
    }
}
