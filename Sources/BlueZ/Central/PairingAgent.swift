import DBus
import Logging

/// What an org.bluez.Agent1 answers when bluetoothd asks it about a pairing.
public enum PairingAgentPolicy: Sendable {
    /// A gateway with no display and no keyboard (NoInputNoOutput): it accepts Just Works confirmations
    /// and service authorizations, and refuses anything that needs a PIN or a passkey, which such a
    /// gateway cannot show or type.
    case justWorks
    /// A device whose owner declines every pairing (KeyboardDisplay, so that bluetoothd asks it): a
    /// virtual peripheral plays a grip that is not in pairing mode with it.
    case refuseAll

    /// The IO capability registered with the agent; it decides whether bluetoothd asks at all.
    var capability: String {
        switch self {
        case .justWorks: "NoInputNoOutput"
        case .refuseAll: "KeyboardDisplay"
        }
    }
}

enum PairingAgent {
    /// `onRefusal` hears each refused request's method and device path.
    static func object(
        path: String, policy: PairingAgentPolicy, logger: Logger,
        onRefusal: @escaping @Sendable (String, String) -> Void = { _, _ in }
    ) -> DBusObject {
        let rejected = DBusError(
            name: "org.bluez.Error.Rejected",
            message: policy == .justWorks ? "this gateway has no input or output" : "pairing declined")
        let accept: DBusInterface.Method = { call in
            logger.info(
                "pairing: accepted \(call.member)", metadata: ["device": "\(call.arguments.first?.string ?? "")"])
            return []
        }
        let refuse: DBusInterface.Method = { call in
            let device = call.arguments.first?.string ?? ""
            logger.warning("pairing: refused \(call.member)", metadata: ["device": "\(device)"])
            onRefusal(call.member, device)
            throw rejected
        }
        let confirm = policy == .justWorks ? accept : refuse
        let ignore: DBusInterface.Method = { _ in [] }
        return DBusObject(
            path: path,
            interfaces: [
                DBusInterface(
                    name: "org.bluez.Agent1",
                    methods: [
                        "Release": ignore, "Cancel": ignore,
                        "RequestConfirmation": confirm, "RequestAuthorization": confirm, "AuthorizeService": confirm,
                        "RequestPinCode": refuse, "RequestPasskey": refuse, "DisplayPinCode": ignore,
                        "DisplayPasskey": ignore,
                    ])
            ])
    }
}
