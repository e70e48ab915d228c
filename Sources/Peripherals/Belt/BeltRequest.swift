/// A write the app makes to the belt, as the simulator understands it (belt.md §3). The parser accepts
/// every variant the vendor clients send; see `decode(characteristic:bytes:)`.
public enum BeltRequest: Sendable, Equatable {
    /// Any write to FE02 (pybelt `01`, Android `00 00`, iOS `00`).
    case keepAliveAck(payload: [UInt8])
    /// `01 01`.
    case requestMode
    /// `01 02`.
    case requestDefaultIntensity
    /// `01 03`.
    case requestHeadingOffset
    /// `01 04`.
    case requestName
    /// `01 81 <mode>` (pybelt) or `01 81 <mode> 00` (Android, iOS).
    case changeMode(BeltMode)
    /// `01 82 <intensity> 00 <feedback>`.
    case changeDefaultIntensity(UInt8, vibrationFeedback: Bool)
    /// `01 83 <lo> <hi>` (iOS).
    case changeHeadingOffset(UInt16)
    /// `01 84 <suffix>` (pybelt).
    case rename(suffix: String)
    /// `10 01 <id>`; the id may be one the simulator does not know.
    case requestAdvancedParameter(id: UInt8)
    /// `11 01 <persist> <lo> <hi>` (Android).
    case setHeadingOffset(UInt16, persist: Bool)
    /// `11 03 <persist> <state>`.
    case setAccuracySignal(AccuracySignalState, persist: Bool)
    /// `11 0F <persist> <lo> <hi>` (pybelt).
    case setOrientationPeriod(milliseconds: UInt16, persist: Bool)
    /// `11 25 <persist> <required>` (pybelt).
    case setPairingRequirement(required: Bool, persist: Bool)
    /// `11 <id> …` for any other id, e.g. iOS's firmware-4 patch `11 0A 02 E1 00 A0 00 E1 00 01`.
    case setOtherAdvancedParameter(id: UInt8, payload: [UInt8])
    /// `12 <parameters> <bluetooth> <sensors>`.
    case reset(parameters: Bool, bluetooth: Bool, sensors: Bool)
    /// 18-byte channel configuration.
    case vibrate(ChannelConfiguration)
    /// 17-byte pulse command.
    case pulse(PulseConfiguration)
    /// `30 <channel>`, or `30 FF` (nil) for every channel.
    case stop(channel: UInt8?)
    /// `20 <signal>`.
    case systemSignal(SystemSignal)
    /// FE07 tone pattern.
    case buzzer(BuzzerTonePattern)
    /// A developer write to FE0A or FE13, kept raw.
    case developerCommand(characteristic: String, bytes: [UInt8])

    /// Parses a write (characteristic UUID in any spelling).
    /// - Throws: `BeltRequestError` for a wrong length, an unknown opcode, a value the belt cannot hold
    ///   or a characteristic that is not writable.
    public static func decode(characteristic: String, bytes: [UInt8]) throws(BeltRequestError) -> BeltRequest {
        let uuid = BluetoothUUID.normalized(characteristic)
        let reader = BeltWriteReader(characteristic: uuid, bytes: bytes)
        switch uuid {
        case BeltGATT.Characteristic.keepAlive:
            // The firmware is believed to accept any ack (belt.md §3.5), even an empty one.
            return .keepAliveAck(payload: bytes)
        case BeltGATT.Characteristic.parameterRequest: return try reader.parameterRequest()
        case BeltGATT.Characteristic.vibrationCommand: return try reader.vibrationCommand()
        case BeltGATT.Characteristic.buzzerCommand: return try reader.buzzerCommand()
        case BeltGATT.Characteristic.sensorCommand, BeltGATT.Characteristic.debugInput:
            return .developerCommand(characteristic: uuid, bytes: bytes)
        default:
            throw BeltRequestError(characteristic: uuid, reason: .notWritable)
        }
    }
}
