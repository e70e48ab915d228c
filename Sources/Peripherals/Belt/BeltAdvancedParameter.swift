/// Identifiers of the "advanced" parameters read with `10 01 <id>` and written with `11 <id> …`
/// (belt.md §3.1). Developer-tool identifiers are left out.
public enum BeltAdvancedParameter: UInt8, Sendable, CaseIterable {
    /// Default intensity (only seen in notifications `10 00 <i>`).
    case defaultIntensity = 0x00
    /// Heading offset, u16 degrees.
    case headingOffset = 0x01
    /// Buzzer active (parsed by Android, otherwise unsupported).
    case buzzerActive = 0x02
    /// Compass-accuracy signal state, see `AccuracySignalState`.
    case accuracySignal = 0x03
    /// iOS's firmware-4 patch parameter.
    case firmwarePatch = 0x0A
    /// Orientation-notification period in ms (firmware ≥ 52; pybelt's reading of 0x0F).
    case orientationPeriod = 0x0F
    /// Whether bonding is required.
    case pairingRequirement = 0x25
}
