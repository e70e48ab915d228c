import DBus
import Logging

/// An org.bluez.Agent1 for a gateway with no display and no keyboard (NoInputNoOutput): it accepts
/// Just Works confirmations and service authorizations, and refuses anything that needs a PIN or a
/// passkey, which such a gateway cannot show or type.
enum PairingAgent {
    static func object(path: String, logger: Logger) -> DBusObject {
        let rejected = DBusError(name: "org.bluez.Error.Rejected", message: "this gateway has no input or output")
        let accept: DBusInterface.Method = { call in
            logger.info("pairing: accepted \(call.member)", metadata: ["device": "\(call.arguments.first?.string ?? "")"])
            return []
        }
        let refuse: DBusInterface.Method = { call in
            logger.warning("pairing: refused \(call.member)", metadata: ["device": "\(call.arguments.first?.string ?? "")"])
            throw rejected
        }
        let ignore: DBusInterface.Method = { _ in [] }
        return DBusObject(path: path, interfaces: [
            DBusInterface(name: "org.bluez.Agent1", methods: [
                "Release": ignore, "Cancel": ignore,
                "RequestConfirmation": accept, "RequestAuthorization": accept, "AuthorizeService": accept,
                "RequestPinCode": refuse, "RequestPasskey": refuse, "DisplayPinCode": ignore, "DisplayPasskey": ignore,
            ])
        ])
    }
}
