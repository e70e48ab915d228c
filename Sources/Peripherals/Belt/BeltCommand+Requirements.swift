/// What a command needs from the belt, and how the belt confirms it (belt.md §3.1, §4.3, §8).
extension BeltCommand {
    /// The lowest firmware version that understands the command; nil for every version.
    /// Crossing mode, pulse and buzzer need 45; reset 43; the orientation period 52; the persist flag 41.
    public var minimumFirmware: UInt16? {
        switch self {
        case .changeMode(.crossing), .pulse, .buzzer: 45
        case .reset: 43
        case .setOrientationPeriod: 52
        case .setHeadingOffset(_, persist: true), .setAccuracySignal(_, persist: true),
            .setPairingRequirement(_, persist: true):
            41
        // Six vibration channels: FSLib-Android notes that firmware 43 handles only 4 simultaneous
        // vibrations (FSLib-iOS's text says 0–3 throughout; its code, Android's and pybelt's take 0–5).
        case .vibrate(let configuration) where configuration.channel >= Self.channelsBeforeFirmware44: 44
        case .stopChannel(let channel) where channel >= Self.channelsBeforeFirmware44: 44
        default: nil
        }
    }

    /// Channels 0–3 exist on every firmware; 4 and 5 from firmware 44.
    public static let channelsBeforeFirmware44 = 4

    /// Whether the belt plays the command outside app mode. FSLib-Android's rule: only a limited
    /// signal on channel 0 that leaves the other channels alone; every other vibration is ignored by
    /// the belt outside app mode (FSLib-iOS sends it anyway and documents that it has no effect).
    /// Commands that are no vibration play in any mode.
    public var playsOutsideAppMode: Bool {
        switch self {
        case .vibrate(let configuration):
            configuration.channel == 0 && configuration.iterations != nil && !configuration.clearOthers
        case .pulse(let configuration):
            configuration.channel == 0 && configuration.seriesIterations != nil && !configuration.clearOthers
        default:
            true
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
