/// What the bridge has learnt about an Activ5 during the handshake, and whether that is enough.
///
/// Completion: a new-protocol device is ready once its serial number and both device-ID halves are known
/// (iOS's "initialized" rule, activ5.md §4.5 A step 7). A legacy device is ready without `TC5k`: Web
/// sends `TVGTIME` without waiting for it and iOS reports the device initialized anyway, so a device
/// that never sends it still connects, its firmware unknown.
/// Decision: legacy `SN1`/`SN2` halves are joined into one serial number (iOS hands them over separately).
public struct Activ5HandshakeProgress: Sendable, Equatable {
    /// The protocol being handshaken.
    public let wireProtocol: Activ5Protocol
    /// Contents of `TC5k`, once received.
    public private(set) var status: Activ5DeviceStatus?
    /// Serial number read from 2A25.
    public private(set) var serialNumberString: String?
    /// Serial-number halves from `SN1`/`SN2` replies.
    public private(set) var serialNumberParts: [Activ5IdentifierHalf: String] = [:]
    /// Device-ID halves from F0F7/F0F8 or `i`/`I` replies, NULs removed.
    public private(set) var deviceIDParts: [Activ5IdentifierHalf: String] = [:]
    /// Battery level from 2A19, if read.
    public private(set) var batteryLevel: UInt8?

    /// Nothing known yet.
    public init(wireProtocol: Activ5Protocol) {
        self.wireProtocol = wireProtocol
    }

    /// Firmware version from `TC5k`, e.g. `1.00`.
    public var firmwareVersion: String? { status?.firmwareVersion }
    /// Protocol version from `TC5k`, e.g. `04`.
    public var protocolVersion: String? { status?.protocolVersion }
    /// The serial number: 2A25, else both legacy halves joined.
    public var serialNumber: String? { serialNumberString ?? Self.joined(serialNumberParts) }
    /// The device ID: both halves joined (iOS `uuid1 + uuid2`).
    public var deviceID: String? { Self.joined(deviceIDParts) }

    /// Whether the required facts are known.
    public var isComplete: Bool { missing.isEmpty }

    /// Names of the required facts still missing, for error messages.
    public var missing: [String] {
        switch wireProtocol {
        case .legacy: []
        case .new: [("serial number", serialNumber == nil), ("device id", deviceID == nil)].filter(\.1).map(\.0)
        }
    }

    /// Learns whatever the value tells; force and IMU samples tell nothing.
    public mutating func record(_ notification: Activ5Notification) {
        switch notification {
        case .legacy(.initial(let status)): self.status = status
        case .legacy(.serialNumberPart(let half, let text)): serialNumberParts[half] = text
        case .legacy(.deviceIDPart(let half, let text)), .deviceIDPart(let half, let text): deviceIDParts[half] = text
        case .serialNumber(let text): serialNumberString = text
        case .batteryLevel(let percent): batteryLevel = percent
        case .legacy(.isometric), .legacy(.unknown), .force, .imu: break
        }
    }

    private static func joined(_ parts: [Activ5IdentifierHalf: String]) -> String? {
        guard let first = parts[.first], let second = parts[.second] else { return nil }
        return first + second
    }
}
