/// What the simulated band does in answer to a write (cpr-band-and-grip.md §A.13). The band sends no
/// notification in reply to a command (the ATT write response is the only acknowledgement), so these
/// are effects for the simulator to carry out: start or stop streaming, ring, rename, switch off.
public enum CPRBandResponse: Sendable, Equatable, Hashable {
    /// The mode was set (also when it was already that mode). Streaming runs in practicing and
    /// evaluating and stops in ready.
    case modeSet(CPRBandMode)
    /// `F2`: LEDs on and the buzzer rings.
    case called
    /// A `newRange` sequence completed.
    case rangeChanged(minMillimetres: UInt8, maxMillimetres: UInt8)
    /// A `newName` sequence completed; the name without its trailing padding.
    case nameChanged(String)
    /// `F7`: name and range are back at factory values.
    case factoryReset
    /// `F7` or `FF`: the band switches off; the simulator drops the link or stops advertising.
    case poweredOff
    /// A factory byte was recorded (§A.5.2); it has no effect.
    case factoryCommandRecorded(CPRBandFactoryOpcode)
    /// The byte was ignored.
    case ignored(CPRBandIgnoredReason)
}

/// Why the simulated band ignored a byte.
public enum CPRBandIgnoredReason: Sendable, Equatable, Hashable {
    /// A ready-only command arrived in another mode and the state enforces the vendor rule.
    case notReady(CPRBandOpcode, mode: CPRBandMode)
    /// The band is switched off.
    case poweredOff
    /// A byte that is neither a command nor awaited as an argument.
    case unexpectedValue(UInt8)
}
