/// Something that went wrong with a device outside any command: published as an event on
/// `<family>/<id>/error` (topics.md), so that a dashboard learns why a device is not there.
/// A session throws one to say precisely why it could not connect.
struct DeviceFailure: Error, Sendable, Equatable, CustomStringConvertible {
    enum Code: String, Sendable {
        /// Connecting, discovering the services or the handshake failed (the session retries).
        case connectFailed = "connect_failed"
        /// The link dropped while connected (the session reconnects).
        case linkLost = "link_lost"
        /// Pairing (bonding) with the device failed.
        case pairingFailed = "pairing_failed"
        /// The device refuses this gateway's bond (it is bonded to another host).
        case notBonded = "not_bonded"
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "\(code.rawValue): \(message)" }

    var json: JSONValue { .object(["code": .string(code.rawValue), "message": .string(message)]) }
}
