/// A button press reported on FE04 (belt.md §4.2): `<button> <press code> <?> <previous mode> <new mode>`.
public struct BeltButtonEvent: Sendable, Equatable {
    /// Wire press code the simulator uses for a short press (iOS treats anything below 3 as short).
    public static let shortPressCode: UInt8 = 1
    /// Wire press code the simulator uses for a long press (iOS treats 3 and above as long).
    public static let longPressCode: UInt8 = 3

    /// The button.
    public let button: BeltButton
    /// Raw press-type byte; see `isLongPress`.
    public let pressCode: UInt8
    /// Byte 2, meaning unknown; kept so that a packet re-encodes unchanged.
    public let unknownByte: UInt8
    /// Mode before the press.
    public let previousMode: BeltMode
    /// Mode after the press; standby means the belt is switching off.
    public let newMode: BeltMode

    /// Whether the press was long, read as iOS does (code ≥ 3).
    public var isLongPress: Bool { pressCode >= Self.longPressCode }

    /// Creates an event from wire values.
    public init(button: BeltButton, pressCode: UInt8, unknownByte: UInt8 = 0, previousMode: BeltMode, newMode: BeltMode)
    {
        self.button = button
        self.pressCode = pressCode
        self.unknownByte = unknownByte
        self.previousMode = previousMode
        self.newMode = newMode
    }

    /// Creates an event for a short or long press.
    public init(button: BeltButton, longPress: Bool, previousMode: BeltMode, newMode: BeltMode) {
        self.init(
            button: button, pressCode: longPress ? Self.longPressCode : Self.shortPressCode, previousMode: previousMode,
            newMode: newMode)
    }

    /// Decodes at least 5 bytes; extra bytes are ignored.
    public init(bytes: [UInt8]) throws(BeltDecodeError) {
        let uuid = BeltGATT.Characteristic.buttonPress
        try BeltDecodeError.requireLength(bytes, 5, characteristic: uuid)
        guard let button = BeltButton(rawValue: bytes[0]) else {
            throw BeltDecodeError(characteristic: uuid, reason: .unknownButton(bytes[0]))
        }
        self.init(
            button: button, pressCode: bytes[1], unknownByte: bytes[2],
            previousMode: try BeltDecodeError.mode(bytes[3], characteristic: uuid),
            newMode: try BeltDecodeError.mode(bytes[4], characteristic: uuid))
    }

    /// The 5 bytes the belt notifies.
    public func encoded() -> [UInt8] {
        [button.rawValue, pressCode, unknownByte, previousMode.rawValue, newMode.rawValue]
    }
}
