/// What a command needs from the belt, and how the belt confirms it (belt.md §3.1, §4.3, §8).
extension BeltCommand {
    /// The lowest firmware version that understands the command; nil for every version.
    /// Crossing mode, pulse and buzzer need 45; reset 43; the orientation period 52; the persist flag 41.
    public var minimumFirmware: UInt16? {
        switch self {
        case .changeMode(.crossing), .pulse, .buzzer: 45
        case .reset: 43
        case .setOrientationPeriod: 52
        case .setHeadingOffset(_, persist: true), .setAccuracySignal(_, persist: true), .setPairingRequirement(_, persist: true): 41
        default: nil
        }
    }

    /// The start of the FE06 notification that confirms the command, for commands the belt answers.
    /// The reply rule: `01 <0x80|id> …` is answered by `01 <id> …`, `11 <id> …` by `10 <id> …`.
    public var acknowledgementPrefix: [UInt8]? {
        switch self {
        case .changeMode(let mode): [0x01, 0x01, mode.rawValue]
        case .changeDefaultIntensity: [0x01, 0x02]
        case .changeHeadingOffset: [0x01, 0x03]
        case .requestMode: [0x01, 0x01]
        case .requestDefaultIntensity: [0x01, 0x02]
        case .requestHeadingOffset: [0x01, 0x03]
        case .requestAdvancedParameter(let parameter): [0x10, parameter.rawValue]
        case .setHeadingOffset: [0x10, BeltAdvancedParameter.headingOffset.rawValue]
        case .setAccuracySignal: [0x10, BeltAdvancedParameter.accuracySignal.rawValue]
        case .setOrientationPeriod: [0x10, BeltAdvancedParameter.orientationPeriod.rawValue]
        case .setPairingRequirement: [0x10, BeltAdvancedParameter.pairingRequirement.rawValue]
        default: nil
        }
    }
}
