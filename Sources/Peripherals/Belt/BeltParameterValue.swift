/// A parameter notification on FE06 (belt.md §4.3): a reply to a request, the ack of a change, or an
/// unsolicited update. Basic values arrive as `01 <id> …`, advanced ones as `10 <id> …`.
public enum BeltParameterValue: Sendable, Equatable {
    /// `01 01 <mode>`.
    case mode(BeltMode)
    /// `01 02 <intensity>`.
    case defaultIntensity(UInt8)
    /// `01 03 <lo> <hi>`.
    case headingOffset(UInt16)
    /// `01 04 <ASCII…>`.
    case name(String)
    /// `10 00 <intensity>`.
    case advancedDefaultIntensity(UInt8)
    /// `10 01 <lo> <hi>`.
    case advancedHeadingOffset(UInt16)
    /// `10 03 <state>`.
    case accuracySignal(AccuracySignalState)
    /// `10 0F <lo> <hi>`: the orientation period, as the ack of a change. Other payload lengths are the
    /// developer reading of 0x0F (belt.md §3.1 conflict) and decode as `unknownParameter`.
    case orientationPeriod(milliseconds: UInt16)
    /// `10 25 <flag>`: whether bonding is required.
    case pairingRequirement(Bool)
    /// Anything else, kept whole (e.g. `10 02 …`, `10 0A …`).
    case unknownParameter([UInt8])

    /// Decodes an FE06 value.
    /// - Throws: `BeltDecodeError` when empty, shorter than its format, or carrying an unknown mode.
    public init(bytes: [UInt8]) throws(BeltDecodeError) {
        let uuid = BeltGATT.Characteristic.parameterNotification
        try BeltDecodeError.requireLength(bytes, 2, characteristic: uuid)
        switch (bytes[0], bytes[1]) {
        case (BeltWireCode.basicParameter, BeltWireCode.modeParameter):
            try BeltDecodeError.requireLength(bytes, 3, characteristic: uuid)
            self = .mode(try BeltDecodeError.mode(bytes[2], characteristic: uuid))
        case (BeltWireCode.basicParameter, BeltWireCode.intensityParameter):
            try BeltDecodeError.requireLength(bytes, 3, characteristic: uuid)
            self = .defaultIntensity(bytes[2])
        case (BeltWireCode.basicParameter, BeltWireCode.headingOffsetParameter):
            try BeltDecodeError.requireLength(bytes, 4, characteristic: uuid)
            self = .headingOffset(bytes.uint16(at: 2) ?? 0)
        case (BeltWireCode.basicParameter, BeltWireCode.nameParameter):
            self = .name(String(decoding: bytes.dropFirst(2), as: UTF8.self))
        case (BeltWireCode.advancedParameter, BeltAdvancedParameter.defaultIntensity.rawValue):
            try BeltDecodeError.requireLength(bytes, 3, characteristic: uuid)
            self = .advancedDefaultIntensity(bytes[2])
        case (BeltWireCode.advancedParameter, BeltAdvancedParameter.headingOffset.rawValue):
            try BeltDecodeError.requireLength(bytes, 4, characteristic: uuid)
            self = .advancedHeadingOffset(bytes.uint16(at: 2) ?? 0)
        case (BeltWireCode.advancedParameter, BeltAdvancedParameter.accuracySignal.rawValue):
            try BeltDecodeError.requireLength(bytes, 3, characteristic: uuid)
            self = .accuracySignal(AccuracySignalState(rawValue: bytes[2]))
        case (BeltWireCode.advancedParameter, BeltAdvancedParameter.orientationPeriod.rawValue) where bytes.count == 4:
            self = .orientationPeriod(milliseconds: bytes.uint16(at: 2) ?? 0)
        case (BeltWireCode.advancedParameter, BeltAdvancedParameter.pairingRequirement.rawValue):
            try BeltDecodeError.requireLength(bytes, 3, characteristic: uuid)
            self = .pairingRequirement(bytes[2] != 0)
        default:
            self = .unknownParameter(bytes)
        }
    }

    /// The FE06 bytes the belt notifies.
    public func encoded() -> [UInt8] {
        let basic = BeltWireCode.basicParameter
        let advanced = BeltWireCode.advancedParameter
        switch self {
        case .mode(let mode): return [basic, BeltWireCode.modeParameter, mode.rawValue]
        case .defaultIntensity(let intensity): return [basic, BeltWireCode.intensityParameter, intensity]
        case .headingOffset(let degrees):
            return [basic, BeltWireCode.headingOffsetParameter] + degrees.littleEndianBytes
        case .name(let name): return [basic, BeltWireCode.nameParameter] + Array(name.utf8)
        case .advancedDefaultIntensity(let intensity):
            return [advanced, BeltAdvancedParameter.defaultIntensity.rawValue, intensity]
        case .advancedHeadingOffset(let degrees):
            return [advanced, BeltAdvancedParameter.headingOffset.rawValue] + degrees.littleEndianBytes
        case .accuracySignal(let state):
            return [advanced, BeltAdvancedParameter.accuracySignal.rawValue, state.rawValue]
        case .orientationPeriod(let milliseconds):
            return [advanced, BeltAdvancedParameter.orientationPeriod.rawValue] + milliseconds.littleEndianBytes
        case .pairingRequirement(let required):
            return [advanced, BeltAdvancedParameter.pairingRequirement.rawValue, required ? 1 : 0]
        case .unknownParameter(let bytes): return bytes
        }
    }
}
