/// A command the bridge sends to a CPR-Band (cpr-band-and-grip.md §A.5–§A.7). Every command goes to
/// FFF4 as a list of one-byte writes with response, each sent after the previous one is acknowledged.
///
/// The band never reports its mode, so the bridge applies `mode(after:)` once the last write of a
/// command is acknowledged, and checks `checkAllowed(in:)` before sending (the vendor's ready-only rule).
public enum CPRBandCommand: Sendable, Equatable, Hashable {
    /// `F1`: ready mode; ends streaming.
    case ready
    /// `F2`: LEDs on and buzzer (identify the band).
    case call
    /// `F3`: practice mode; streaming with LED feedback.
    case practice
    /// `F4`: evaluation mode; streaming with LEDs off.
    case evaluate
    /// `F5 <min mm> <max mm>` as three writes.
    case range(CPRBandDepthRange)
    /// `F6` and the 18 space-padded name bytes as nineteen writes.
    case name(CPRBandName)
    /// `F7`: factory name and range; the firmware then switches the band off.
    case reset
    /// `FF`: switch the band off. (`F7` switches it off too, after a factory reset.)
    case powerOff

    /// What the Bus library writes on its own right after connecting and enabling notifications (§A.3):
    /// `F1`, which puts the band into ready mode.
    public static let onConnect = CPRBandCommand.ready

    /// The characteristic every command is written to (FFF4).
    public var characteristicUUID: String { CPRBandGATT.Characteristic.command }

    /// The command byte of the first write.
    public var opcode: CPRBandOpcode {
        switch self {
        case .ready: .ready
        case .call: .call
        case .practice: .practice
        case .evaluate: .evaluationStart
        case .range: .newRange
        case .name: .newName
        case .reset: .reset
        case .powerOff: .powerOff
        }
    }

    /// The writes in order; each element is the payload of one write (always one byte).
    public var writes: [[UInt8]] {
        let arguments: [UInt8] =
            switch self {
            case .range(let range): [range.minMillimetres, range.maxMillimetres]
            case .name(let name): name.paddedBytes
            default: []
            }
        return ([opcode.rawValue] + arguments).map { [$0] }
    }

    /// The vendor rule "only sent in ready mode" (§A.4/§A.5.1): true for call, range, name, reset and
    /// power off.
    public var requiresReadyMode: Bool { opcode.requiresReadyMode }

    /// The mode the band is in once the last write is acknowledged; nil when the command leaves the
    /// mode unchanged (call, range, name; Bus shows `sending` meanwhile and then restores the mode).
    public var resultingMode: CPRBandMode? {
        switch self {
        case .ready: .ready
        case .practice: .practicing
        case .evaluate: .evaluating
        case .reset, .powerOff: .off
        case .call, .range, .name: nil
        }
    }

    /// The mode after the last write is acknowledged, starting from `current`.
    public func mode(after current: CPRBandMode) -> CPRBandMode { resultingMode ?? current }

    /// Checks the vendor's rule before sending: ready-only commands need `.ready`, and nothing can be
    /// sent to a band that is off.
    /// - Throws: `FieldError` with field `mode`.
    public func checkAllowed(in mode: CPRBandMode) throws(FieldError) {
        if mode == .off {
            throw FieldError(field: "mode", message: "the band is switched off")
        }
        if requiresReadyMode && mode != .ready {
            throw FieldError(
                field: "mode", message: "\(opcode) is only sent in ready mode, the band is \(mode.rawValue)")
        }
    }
}
