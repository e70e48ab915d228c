extension HeartRateMeasurement {
    /// Decodes a Heart Rate Measurement notification: a flags byte (`HeartRateMeasurementFlags`), the heart rate
    /// (uint8, or uint16 little-endian), the energy expended if flagged (uint16 kJ), then, if flagged, every
    /// remaining pair of bytes as an RR interval (uint16 little-endian, 1/1024 s, oldest first).
    ///
    /// Decisions: reserved flag bits are ignored; a heart rate of 0 decodes. Without RR intervals the value must
    /// end after the last flagged field: bytes the flags do not explain mean the flags are not what we think, so
    /// they are refused rather than dropped. With RR intervals an odd remainder is refused for the same reason.
    /// - Throws: `HeartRateDecodeError` for an empty, short, over-long or trailing-byte value, or an odd RR field.
    public init(bytes: [UInt8]) throws(HeartRateDecodeError) {
        let uuid = HeartRateGATT.Characteristic.measurement
        guard let flagsByte = bytes.first else { throw HeartRateDecodeError(characteristic: uuid, reason: .empty) }
        // Checked before anything is read, so that the RR intervals below cannot grow past 255.
        guard bytes.count <= Self.maximumByteCount else {
            throw HeartRateDecodeError(
                characteristic: uuid, reason: .tooLong(maximum: Self.maximumByteCount, actual: bytes.count))
        }
        let flags = HeartRateMeasurementFlags(rawValue: flagsByte)
        try HeartRateDecodeError.requireLength(bytes, flags.minimumByteCount, characteristic: uuid)

        // The length check above makes every read below succeed; `?? 0` only satisfies the optional API.
        let heartRate = flags.hasUInt16HeartRate ? Int(bytes.uint16(at: 1) ?? 0) : Int(bytes[1])
        let energyOffset = flags.hasUInt16HeartRate ? 3 : 2
        let energy = flags.hasEnergyExpended ? Int(bytes.uint16(at: energyOffset) ?? 0) : nil
        let rrOffset = flags.fixedFieldsByteCount
        let remaining = bytes.count - rrOffset

        var rrIntervals: [UInt16] = []
        if flags.hasRRIntervals {
            guard remaining.isMultiple(of: 2) else {
                throw HeartRateDecodeError(characteristic: uuid, reason: .oddRRIntervalLength(remaining))
            }
            rrIntervals = (0..<remaining / 2).map { bytes.uint16(at: rrOffset + 2 * $0) ?? 0 }
        } else if remaining > 0 {
            throw HeartRateDecodeError(characteristic: uuid, reason: .trailingBytes(remaining))
        }
        self.init(
            beatsPerMinute: heartRate, contact: flags.contact, energyExpendedKilojoules: energy,
            rawRRIntervals: rrIntervals)
    }
}
