import DBus

/// A change in BlueZ's object tree, as the cache saw it.
public enum BlueZEvent: Sendable {
    /// `org.bluez` got an owner and the cache holds its objects.
    case serviceAppeared
    /// `org.bluez` lost its owner (bluetoothd stopped or crashed): every object is gone.
    case serviceVanished
    case interfacesAdded(path: String, interfaces: [String])
    case interfacesRemoved(path: String, interfaces: [String])
    case propertiesChanged(path: String, interface: String, changed: [String: DBusValue], invalidated: [String])
}
