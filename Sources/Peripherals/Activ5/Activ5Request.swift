/// A host→device operation as the simulator understands it (activ5.md §4.1, §5). The parser accepts every
/// variant the vendor clients send; see `decode(characteristic:bytes:)`.
public enum Activ5Request: Sendable, Equatable {
    /// `TVGTIME`.
    case handshakeReply
    /// `TVGTIME!GAPI ` (Android 2019-05, OLIVER), which asks for the obsolete binary GAPI format.
    case gapiHandshake
    /// `ISOM!`.
    case startIsometric
    /// `STOP!`; also the evergreen keep-alive, which is the same bytes.
    case stop
    /// `TARE!`.
    case tare
    /// `SN1!` / `SN2!`.
    case requestSerialNumber(Activ5IdentifierHalf)
    /// `ID1!` / `ID2!`.
    case requestDeviceID(Activ5IdentifierHalf)
    /// `D<ddMMyyyy>/D`, the eight digits as sent.
    case setDate(digits: String)
    /// `T<HHmmss>/T`, the six digits as sent.
    case setTime(digits: String)
    /// `HR!`, OLIVER's raw heart-rate start for older TAO hardware.
    case heartRate
    /// Notifications enabled on a characteristic (BlueZ StartNotify, or CCCD `01 00`/`02 00`).
    case subscribe(String)
    /// Notifications disabled on a characteristic (BlueZ StopNotify, or CCCD `00 00`).
    case unsubscribe(String)
    /// F0FA sample period in ms.
    case setSamplePeriod(milliseconds: Int16)

    /// Parses a characteristic write (UUID in any spelling).
    ///
    /// On 5A02 every client variant is accepted: an optional leading line feed (OLIVER's `0x0A A ISOM!`),
    /// the `'A'` marker, the text, then 0x19 (Web, Android, OLIVER), 0x13 (iOS) or no terminator (OLIVER's
    /// `HR!`, Android's `ATVGTIME!GAPI `); trailing spaces are ignored. `HR!` is also accepted without `'A'`,
    /// which is how OLIVER writes it. F0FA takes exactly two bytes, a positive int16 LE.
    /// - Throws: `Activ5RequestError` for an empty write, a missing `'A'`, unknown text, a wrong length, a
    ///   non-positive period or a characteristic that is not writable.
    public static func decode(characteristic: String, bytes: [UInt8]) throws(Activ5RequestError) -> Activ5Request {
        let uuid = BluetoothUUID.normalized(characteristic)
        switch uuid {
        case Activ5GATT.Characteristic.legacyCommands:
            return try legacyCommand(bytes)
        case Activ5GATT.Characteristic.samplePeriod:
            if bytes.isEmpty { throw Activ5RequestError(characteristic: uuid, reason: .empty) }
            guard bytes.count == 2, let milliseconds = bytes.int16(at: 0) else {
                throw Activ5RequestError(characteristic: uuid, reason: .invalidLength(actual: bytes.count))
            }
            guard milliseconds > 0 else {
                throw Activ5RequestError(
                    characteristic: uuid, reason: .outOfRange(field: "milliseconds", value: Int(milliseconds)))
            }
            return .setSamplePeriod(milliseconds: milliseconds)
        default:
            throw Activ5RequestError(characteristic: uuid, reason: .notWritable)
        }
    }

    /// Parses a CCCD write for `characteristic`: bit 0 (notify) or bit 1 (indicate) set subscribes.
    /// - Throws: `Activ5RequestError` unless the value is two bytes.
    public static func decodeClientConfiguration(characteristic: String, bytes: [UInt8]) throws(Activ5RequestError)
        -> Activ5Request
    {
        let uuid = BluetoothUUID.normalized(characteristic)
        guard bytes.count == 2 else {
            throw Activ5RequestError(
                characteristic: uuid, reason: bytes.isEmpty ? .empty : .invalidLength(actual: bytes.count))
        }
        return bytes[0] & 0x03 != 0 ? .subscribe(uuid) : .unsubscribe(uuid)
    }

    private static func legacyCommand(_ bytes: [UInt8]) throws(Activ5RequestError) -> Activ5Request {
        let uuid = Activ5GATT.Characteristic.legacyCommands
        if bytes.isEmpty { throw Activ5RequestError(characteristic: uuid, reason: .empty) }
        var body = bytes.drop { $0 == Activ5LegacyFraming.leadingLineFeed }
        if let last = body.last,
            last == Activ5LegacyFraming.commandTerminator || last == Activ5LegacyFraming.iOSCommandTerminator
        {
            body.removeLast()
        }
        while let last = body.last, last == 0x20 { body.removeLast() }
        let raw = String(decoding: body, as: UTF8.self)
        if raw == "HR!" { return .heartRate }
        guard body.first == Activ5LegacyFraming.commandMarker else {
            throw Activ5RequestError(characteristic: uuid, reason: .missingCommandMarker)
        }
        let text = String(raw.dropFirst())
        if let request = keywords[text] { return request }
        if let digits = enclosed(text, tag: "D", digitCount: 8) { return .setDate(digits: digits) }
        if let digits = enclosed(text, tag: "T", digitCount: 6) { return .setTime(digits: digits) }
        throw Activ5RequestError(characteristic: uuid, reason: .unknownCommand(text))
    }

    /// Fixed command texts after the `'A'`.
    private static let keywords: [String: Activ5Request] = [
        "TVGTIME": .handshakeReply, "TVGTIME!GAPI": .gapiHandshake, "ISOM!": .startIsometric, "STOP!": .stop,
        "TARE!": .tare, "SN1!": .requestSerialNumber(.first), "SN2!": .requestSerialNumber(.second),
        "ID1!": .requestDeviceID(.first), "ID2!": .requestDeviceID(.second), "HR!": .heartRate,
    ]

    /// The digits of `<tag><digits>/<tag>`, or nil if `text` has another shape.
    private static func enclosed(_ text: String, tag: Character, digitCount: Int) -> String? {
        let characters = Array(text)
        guard characters.count == digitCount + 3, characters.first == tag, characters.last == tag,
            characters[digitCount + 1] == "/"
        else { return nil }
        let digits = characters[1...digitCount]
        return digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? String(digits) : nil
    }
}
