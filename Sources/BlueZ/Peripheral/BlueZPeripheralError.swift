import DBus

/// The `org.bluez.Error.*` replies a GATT server gives, named as bluetoothd maps the ATT errors
/// (foundations.md §1.4), so a central sees the same error from a simulator as from a real peripheral.
public enum BlueZPeripheralError {
    /// Read on a characteristic without `read` (ATT Read Not Permitted).
    public static let readNotPermitted = DBusError(name: "org.bluez.Error.NotPermitted", message: "Read not permitted")
    /// Write on a characteristic without `write` (ATT Write Not Permitted).
    public static let writeNotPermitted = DBusError(
        name: "org.bluez.Error.NotPermitted", message: "Write not permitted")
    /// Offset beyond the value.
    public static let invalidOffset = DBusError(name: "org.bluez.Error.InvalidOffset", message: "Invalid offset")
    /// A value of the wrong length.
    public static let invalidValueLength = DBusError(
        name: "org.bluez.Error.InvalidValueLength", message: "Invalid length")

    /// An operation the attribute does not support (notify on a non-notifying characteristic, …).
    public static func notSupported(_ what: String) -> DBusError {
        DBusError(name: "org.bluez.Error.NotSupported", message: "\(what) not supported")
    }

    /// A request the current state rules out (StartNotify while notifications are acquired, …).
    public static func notPermitted(_ message: String) -> DBusError {
        DBusError(name: "org.bluez.Error.NotPermitted", message: message)
    }

    /// A second subscription while one is being set up or held.
    public static let inProgress = DBusError(name: "org.bluez.Error.InProgress", message: "In Progress")

    /// Arguments of the wrong type.
    public static func invalidArguments(_ message: String) -> DBusError {
        DBusError(name: "org.bluez.Error.InvalidArguments", message: message)
    }
}
