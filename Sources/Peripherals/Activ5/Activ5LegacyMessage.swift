/// A device→host message on 5A01, as found between 0x12 and 0x13 (activ5.md §4.3).
public enum Activ5LegacyMessage: Sendable, Equatable {
    /// `TC5k;…`, sent once notifications are enabled; the host answers `TVGTIME`.
    case initial(Activ5DeviceStatus)
    /// `IS<n>/IS`, a raw isometric value; see `newtons`.
    case isometric(raw: Int)
    /// `<x>SN1<text>` / `<x>SN2<text>`, a half of the serial number.
    case serialNumberPart(Activ5IdentifierHalf, String)
    /// `<x>i<text>` / `<x>I<text>`, a half of the device ID, NULs removed.
    case deviceIDPart(Activ5IdentifierHalf, String)
    /// Any other payload; iOS treats it as a sign that the device stopped.
    case unknown(String)

    /// Leading character the simulator puts before `SN1`, `i`, …. The real one is unknown (activ5.md §10.7);
    /// `'A'` is the guess that it echoes the command marker. Decoders ignore it.
    public static let replyPrefix = "A"

    /// Newtons of an isometric value (×1.08625263633); nil for other messages.
    public var newtons: Double? {
        guard case .isometric(let raw) = self else { return nil }
        return Activ5ForceScale.newtons(legacyRaw: raw)
    }

    /// Decodes a whole 5A01 notification: framing first, then the payload.
    /// - Throws: `Activ5DecodeError` for missing framing bytes or a `TC5k`/`IS` message that cannot be read.
    public static func decode(notification bytes: [UInt8]) throws(Activ5DecodeError) -> Activ5LegacyMessage {
        try decode(payload: String(decoding: try Activ5LegacyFraming.payload(of: bytes), as: UTF8.self))
    }

    /// Decodes a payload. Like iOS, only field 0 (up to the first `;`) of `IS`, `SN`, `i` and `I` messages
    /// is used. `SN` is tested before `IS` because `ISN1…` (an `I` before `SN1`) would otherwise look
    /// like an isometric value.
    public static func decode(payload: String) throws(Activ5DecodeError) -> Activ5LegacyMessage {
        if payload.hasPrefix(Activ5DeviceStatus.messageType) {
            return .initial(try Activ5DeviceStatus(payload: payload))
        }
        let field = Array(payload.prefix { $0 != ";" })
        if field.count >= 4 {
            switch String(field[1..<4]) {
            case "SN1": return .serialNumberPart(.first, String(field[4...]))
            case "SN2": return .serialNumberPart(.second, String(field[4...]))
            default: break
            }
        }
        if payload.hasPrefix("IS") { return .isometric(raw: try isometricValue(String(field))) }
        if field.count >= 2 {
            let rest = String(field[2...]).filter { $0 != "\0" }
            switch field[1] {
            case "i": return .deviceIDPart(.first, rest)
            case "I": return .deviceIDPart(.second, rest)
            default: break
            }
        }
        return .unknown(payload)
    }

    /// The payload the device sends, e.g. `IS100/IS` or `ASN1<text>`.
    public var payload: String {
        switch self {
        case .initial(let status): status.payload
        case .isometric(let raw): "IS\(raw)/IS"
        case .serialNumberPart(let half, let text): Self.replyPrefix + "SN\(half.rawValue)" + text
        case .deviceIDPart(let half, let text): Self.replyPrefix + (half == .first ? "i" : "I") + text
        case .unknown(let text): text
        }
    }

    /// The frame the device sends, without a stale tail: 0x12, payload, 0x13.
    public func encoded() -> [UInt8] { Activ5LegacyFraming.message(payload) }

    /// The decimal integer between the leading `IS` and the first `/` (Web's `IS(.*)/IS`). A sign is
    /// accepted because Android's `parseInt` and iOS's `Double(_:)` accept one.
    private static func isometricValue(_ field: String) throws(Activ5DecodeError) -> Int {
        let body = field.dropFirst(2)
        guard let slash = body.firstIndex(of: "/"), let value = Int(body[..<slash]) else {
            throw Activ5DecodeError(
                characteristic: Activ5GATT.Characteristic.legacyMessages, reason: .malformedMessage(field))
        }
        return value
    }
}
