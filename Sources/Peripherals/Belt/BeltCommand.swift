/// A command the bridge writes to the belt (belt.md §3), with the characteristic it goes to and its
/// exact bytes. Where the vendor clients differ, the encoder sends the most common variant.
public enum BeltCommand: Sendable, Equatable {
    /// `01 01` on FE05; the belt answers `01 01 <mode>`.
    case requestMode
    /// `01 02` on FE05; the belt answers `01 02 <intensity>`.
    case requestDefaultIntensity
    /// `01 03` on FE05; the belt answers `01 03 <lo> <hi>`.
    case requestHeadingOffset
    /// `01 04` on FE05; the belt answers `01 04 <name>`.
    case requestName
    /// `01 81 <mode> 00`, the 4-byte form Android and iOS send.
    case changeMode(BeltMode)
    /// `01 82 <intensity> 00 <feedback>`; intensity 0–100 (the belt raises it to at least 5).
    case changeDefaultIntensity(Int, vibrationFeedback: Bool)
    /// `01 83 <lo> <hi>` (iOS's basic form); degrees wrap mod 360.
    case changeHeadingOffset(degrees: Int)
    /// `01 84 <ASCII suffix>`; at most 18 ASCII bytes. pybelt drops the link afterwards.
    case rename(suffix: String)
    /// `10 01 <id>`; the belt answers `10 <id> <value…>`.
    case requestAdvancedParameter(BeltAdvancedParameter)
    /// `11 01 <persist> <lo> <hi>` (Android's advanced form); degrees wrap mod 360.
    case setHeadingOffset(degrees: Int, persist: Bool)
    /// `11 03 <persist> <state>`; the belt answers `10 03 <state>`.
    case setAccuracySignal(AccuracySignalState, persist: Bool)
    /// `11 0F 00 <lo> <hi>`, 20–65535 ms, firmware ≥ 52; the belt answers `10 0F …`.
    case setOrientationPeriod(milliseconds: Int)
    /// `11 25 <persist> <required>`; the belt answers `10 25 <flag>`.
    case setPairingRequirement(required: Bool, persist: Bool)
    /// `12 <parameters> <bluetooth> <sensors>`, firmware ≥ 43. A Bluetooth reset drops the link.
    case reset(parameters: Bool, bluetooth: Bool, sensors: Bool)
    /// 18-byte channel configuration on FE03.
    case vibrate(ChannelConfiguration)
    /// 17-byte pulse command on FE03, firmware ≥ 45.
    case pulse(PulseConfiguration)
    /// `30 FF`: stop every channel.
    case stopAll
    /// `30 <channel>`: stop one channel, 0–5.
    case stopChannel(Int)
    /// `20 <signal>`: a built-in signal.
    case systemSignal(SystemSignal)
    /// `00` on FE02, as iOS sends it; the belt accepts any payload.
    case keepAliveAck
    /// Tone pattern on FE07, firmware ≥ 45.
    case buzzer(BuzzerTonePattern)

    /// The characteristic the command is written to.
    public var characteristicUUID: String {
        switch self {
        case .keepAliveAck: BeltGATT.Characteristic.keepAlive
        case .vibrate, .pulse, .stopAll, .stopChannel, .systemSignal: BeltGATT.Characteristic.vibrationCommand
        case .buzzer: BeltGATT.Characteristic.buzzerCommand
        default: BeltGATT.Characteristic.parameterRequest
        }
    }

    /// Checks the plain-integer arguments; configurations were checked when they were built.
    /// - Throws: `FieldError` naming the field (`intensity`, `suffix`, `milliseconds`, `channel`).
    public func validate() throws(FieldError) {
        switch self {
        case .changeDefaultIntensity(let intensity, _):
            try FieldError.check(intensity, in: 0...100, field: "intensity")
        case .rename(let suffix):
            guard suffix.unicodeScalars.allSatisfy(\.isASCII) else {
                throw FieldError(field: "suffix", message: "must be ASCII")
            }
            try FieldError.check(suffix.utf8.count, in: 1...BeltWireCode.maximumNameSuffixLength, field: "suffix")
        case .setOrientationPeriod(let milliseconds):
            try FieldError.check(
                milliseconds, in: BeltWireCode.minimumOrientationPeriodMs...0xFFFF, field: "milliseconds")
        case .stopChannel(let channel):
            try FieldError.check(channel, in: 0...5, field: "channel")
        default:
            break
        }
    }

    /// The bytes to write. Out-of-range integers that `validate()` would reject are clamped, so encoding
    /// never traps; call `validate()` first to report them instead.
    public func encoded() -> [UInt8] {
        switch self {
        case .requestMode: [BeltWireCode.basicParameter, BeltWireCode.modeParameter]
        case .requestDefaultIntensity: [BeltWireCode.basicParameter, BeltWireCode.intensityParameter]
        case .requestHeadingOffset: [BeltWireCode.basicParameter, BeltWireCode.headingOffsetParameter]
        case .requestName: [BeltWireCode.basicParameter, BeltWireCode.nameParameter]
        case .changeMode(let mode):
            [BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.modeParameter, mode.rawValue, 0]
        case .changeDefaultIntensity(let intensity, let feedback):
            [
                BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.intensityParameter,
                UInt8(intensity.clamped(to: 0...100)), 0, feedback ? 1 : 0,
            ]
        case .changeHeadingOffset(let degrees):
            [BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.headingOffsetParameter]
                + Self.wrappedDegrees(degrees).littleEndianBytes
        case .rename(let suffix):
            [BeltWireCode.basicParameter, BeltWireCode.basicWriteFlag | BeltWireCode.nameParameter]
                + suffix.utf8.filter { $0 < 0x80 }.prefix(BeltWireCode.maximumNameSuffixLength)
        case .requestAdvancedParameter(let parameter):
            [BeltWireCode.advancedParameter, 0x01, parameter.rawValue]
        case .setHeadingOffset(let degrees, let persist):
            [BeltWireCode.advancedParameterWrite, BeltAdvancedParameter.headingOffset.rawValue, persist ? 1 : 0]
                + Self.wrappedDegrees(degrees).littleEndianBytes
        case .setAccuracySignal(let state, let persist):
            [
                BeltWireCode.advancedParameterWrite, BeltAdvancedParameter.accuracySignal.rawValue, persist ? 1 : 0,
                state.rawValue,
            ]
        case .setOrientationPeriod(let milliseconds):
            // pybelt sends the persist byte as 0: the period lasts until power-off.
            [BeltWireCode.advancedParameterWrite, BeltAdvancedParameter.orientationPeriod.rawValue, 0]
                + UInt16(milliseconds.clamped(to: BeltWireCode.minimumOrientationPeriodMs...0xFFFF)).littleEndianBytes
        case .setPairingRequirement(let required, let persist):
            [
                BeltWireCode.advancedParameterWrite, BeltAdvancedParameter.pairingRequirement.rawValue,
                persist ? 1 : 0, required ? 1 : 0,
            ]
        case .reset(let parameters, let bluetooth, let sensors):
            [BeltWireCode.reset, parameters ? 1 : 0, bluetooth ? 1 : 0, sensors ? 1 : 0]
        case .vibrate(let configuration): configuration.encoded()
        case .pulse(let configuration): configuration.encoded()
        case .stopAll: [BeltWireCode.stop, BeltWireCode.allChannels]
        case .stopChannel(let channel): [BeltWireCode.stop, UInt8(channel.clamped(to: 0...5))]
        case .systemSignal(let signal): [BeltWireCode.systemSignal, signal.rawValue]
        case .keepAliveAck: [0x00]
        case .buzzer(let pattern): pattern.encoded()
        }
    }

    /// Degrees wrapped into 0–359, negatives included.
    private static func wrappedDegrees(_ degrees: Int) -> UInt16 {
        UInt16(((degrees % 360) + 360) % 360)
    }
}

extension Int {
    /// The value limited to `range`.
    func clamped(to range: ClosedRange<Int>) -> Int {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
