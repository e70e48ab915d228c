/// The fields of the legacy `TC5k;<firmware>;<protocol>;<battery>` message (activ5.md §4.3).
///
/// Decision: only the firmware field is required. The protocol version (`04` is the only value seen) and the
/// battery token (`BATOK` is the only value seen) are optional so that a shorter variant still decodes.
public struct Activ5DeviceStatus: Sendable, Equatable {
    /// The message type, first field.
    public static let messageType = "TC5k"
    /// The only battery token seen; other tokens exist but are unknown.
    public static let batteryOKToken = "BATOK"

    /// Firmware version, e.g. `1.00`.
    public let firmwareVersion: String
    /// Protocol version, e.g. `04`; no client branches on it.
    public let protocolVersion: String?
    /// Battery status token, e.g. `BATOK`.
    public let batteryStatus: String?

    /// Whether the battery token says the battery is fine. Unknown tokens count as not fine.
    public var isBatteryOK: Bool { batteryStatus == Self.batteryOKToken }

    /// Creates a status.
    public init(firmwareVersion: String, protocolVersion: String? = "04", batteryStatus: String? = "BATOK") {
        self.firmwareVersion = firmwareVersion
        self.protocolVersion = protocolVersion
        self.batteryStatus = batteryStatus
    }

    /// Reads the payload of a message already known to start with `TC5k`.
    init(payload: String) throws(Activ5DecodeError) {
        let fields = payload.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 2, !fields[1].isEmpty else {
            throw Activ5DecodeError(
                characteristic: Activ5GATT.Characteristic.legacyMessages, reason: .malformedMessage(payload))
        }
        self.init(
            firmwareVersion: fields[1], protocolVersion: fields.count > 2 ? fields[2] : nil,
            batteryStatus: fields.count > 3 ? fields[3] : nil)
    }

    /// The payload, e.g. `TC5k;1.00;04;BATOK`; absent trailing fields are left out.
    public var payload: String {
        var fields = [Self.messageType, firmwareVersion]
        if let protocolVersion {
            fields.append(protocolVersion)
            if let batteryStatus { fields.append(batteryStatus) }
        }
        return fields.joined(separator: ";")
    }
}
