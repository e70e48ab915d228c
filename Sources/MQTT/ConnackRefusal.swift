/// Which CONNACK refusals end with time: the broker says it cannot take the client now, not that the
/// client is wrong (credentials, identifier, protocol), which no retry would change.
enum ConnackRefusal {
    /// MQTT 3.1.1 §3.2.2.3: 3, "Server unavailable".
    static let temporaryReturnCodes: Set<Int32> = [3]
    /// MQTT 5 §3.2.2.2: 0x88 Server unavailable, 0x89 Server busy, 0x97 Quota exceeded,
    /// 0x9F Connection rate exceeded.
    static let temporaryReasonCodes: Set<Int32> = [0x88, 0x89, 0x97, 0x9F]

    /// Whether a refusal with `code` (a 3.1.1 return code or an MQTT 5 reason code) is worth retrying.
    static func isTemporary(code: Int32, version: MQTTProtocolVersion) -> Bool {
        switch version {
        case .v5: temporaryReasonCodes.contains(code)
        case .v311: temporaryReturnCodes.contains(code)
        }
    }
}
