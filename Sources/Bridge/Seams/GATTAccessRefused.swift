import DBus

/// A device's refusal of a read or a write for want of a bond or an authorization (BlueZ's `NotPermitted` and
/// `NotAuthorized`), as a family sees it: the grip answers so when it is bonded to another host. Families match this
/// type rather than D-Bus error names; its text is BlueZ's, unchanged.
struct GATTAccessRefused: Error, Sendable, CustomStringConvertible {
    let description: String

    /// `error` as a refusal when it is one; otherwise `error` itself.
    static func typed(_ error: any Error) -> any Error {
        guard let error = error as? DBusError,
            error.name == "org.bluez.Error.NotPermitted" || error.name == "org.bluez.Error.NotAuthorized"
        else { return error }
        return GATTAccessRefused(description: error.description)
    }
}
