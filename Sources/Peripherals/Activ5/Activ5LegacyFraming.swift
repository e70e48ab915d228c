/// Byte-level framing of the legacy ASCII channel (activ5.md §4.1, §4.2).
public enum Activ5LegacyFraming: Sendable {
    /// `'A'`, first byte of every host→device command.
    public static let commandMarker: UInt8 = 0x41
    /// Command terminator the bridge sends: 0x19, as Web, Android (2019-10) and OLIVER send it.
    public static let commandTerminator: UInt8 = 0x19
    /// Command terminator of the iOS library (a hex/decimal mix-up of "19"); the simulator accepts it.
    public static let iOSCommandTerminator: UInt8 = 0x13
    /// Line feed OLIVER puts before its `ISOM!`; the simulator skips it.
    public static let leadingLineFeed: UInt8 = 0x0A
    /// DC2, first byte of a device→host message.
    public static let messageStart: UInt8 = 0x12
    /// DC3, end of a device→host message; what follows is a stale buffer tail.
    public static let messageEnd: UInt8 = 0x13
    /// Notifications look like fixed 20-byte frames (both iOS test vectors are 20 bytes).
    public static let frameLength = 20

    /// A host→device command: `'A'`, the ASCII text, 0x19.
    public static func command(_ text: String) -> [UInt8] {
        [commandMarker] + Array(text.utf8) + [commandTerminator]
    }

    /// A device→host message: 0x12, the ASCII payload, 0x13, without any stale tail.
    public static func message(_ payload: String) -> [UInt8] {
        [messageStart] + Array(payload.utf8) + [messageEnd]
    }

    /// The payload of a notification: the bytes after the first 0x12 up to the first 0x13 after it, with any
    /// further 0x12 dropped as iOS does. Everything after the 0x13 is ignored.
    /// - Throws: `Activ5DecodeError` when the notification is empty or either framing byte is missing.
    public static func payload(of bytes: [UInt8]) throws(Activ5DecodeError) -> [UInt8] {
        let uuid = Activ5GATT.Characteristic.legacyMessages
        try Activ5DecodeError.requireLength(bytes, 1, characteristic: uuid)
        guard let start = bytes.firstIndex(of: messageStart) else {
            throw Activ5DecodeError(characteristic: uuid, reason: .missingFrameStart)
        }
        let afterStart = bytes[(start + 1)...]
        guard let end = afterStart.firstIndex(of: messageEnd) else {
            throw Activ5DecodeError(characteristic: uuid, reason: .missingFrameEnd)
        }
        return afterStart[..<end].filter { $0 != messageStart }
    }
}
