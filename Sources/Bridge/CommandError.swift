/// Why a command was refused or failed. The codes are part of the MQTT contract (topics.md).
public struct CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The payload is not what the command takes (not JSON, too large, wrong shape).
        case invalidPayload = "invalid_payload"
        /// A field has a wrong type or a value out of range; the message names the field.
        case invalidValue = "invalid_value"
        /// Too many commands for one device: more than the configured rate.
        case rateLimited = "rate_limited"
        /// No such command for this device family.
        case unknownCommand = "unknown_command"
        /// No device with that address has been seen.
        case unknownDevice = "unknown_device"
        /// The device is not connected (or not yet through its handshake).
        case notConnected = "not_connected"
        /// A command that chose to wait (MQTT 5 message expiry) expired before its device connected.
        case expired
        /// The device did not acknowledge in time.
        case timeout
        /// BlueZ or the device refused the GATT operation.
        case gattError = "gatt_error"
        /// The device cannot do this now (for example: a vendor rule allows it only in one mode).
        case invalidState = "invalid_state"
        /// The device is in a mode where it ignores the command (a belt vibration outside app mode).
        case wrongMode = "wrong_mode"
        /// The device's firmware is too old for the command.
        case unsupportedFirmware = "unsupported_firmware"
        /// The command or request came as a retained message: the broker's store, not a sender, delivered it (at a
        /// start, after a reconnect), and would deliver it again every time.
        case retained
        /// A `restart` too soon after the gateway's start: a restart loop is cut short.
        case tooSoon = "too_soon"
        /// A privileged request (`options`, `restart`) on a gateway that takes none from the broker
        /// (`requests.privileged`).
        case notPermitted = "not_permitted"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
