// What a simulated heart rate sensor serves when the bridge reads 2A38 and 2A19: the inverses of the decoders.

extension HeartRateBodySensorLocation {
    /// The value of a read of Body Sensor Location (2A38): the one byte of `byte`.
    ///
    /// A `.reserved` location sends its byte as it is, so a reserved value read from a strap is served back
    /// unchanged. `.reserved` holding a named value (0–6) is not refused either: it sends that byte, which reads
    /// back as the named location, since the byte is all the wire carries.
    public func encoded() -> [UInt8] { [byte] }
}

extension HeartRateBatteryLevel {
    /// A charge of `percent`, clamped to 0–100, so that a simulated strap can never serve a reserved level
    /// (101–255) that the bridge's decoder would refuse.
    public init(clampingPercent percent: Int) {
        self.percent = percent.clamped(to: Int(Self.validPercent.lowerBound)...Int(Self.validPercent.upperBound))
    }

    /// The value of a read of Battery Level (2A19): the percent as one byte.
    public func encoded() -> [UInt8] { [UInt8(percent)] }
}
