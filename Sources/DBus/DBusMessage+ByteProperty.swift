import CDBus
import Glibc

extension DBusMessage {
    /// When this is `PropertiesChanged(interface, {property: <ay>}, [])` — one byte-array property of
    /// `interface` changed and nothing else, as a GATT notification is — its bytes, read straight from
    /// the message without decoding the arguments into values. Nil for anything else.
    func changedByteProperty(interface: UnsafePointer<CChar>, property: UnsafePointer<CChar>) -> [UInt8]? {
        guard let member = dbus_message_get_member(raw), strcmp(member, "PropertiesChanged") == 0,
            let signalInterface = dbus_message_get_interface(raw),
            strcmp(signalInterface, "org.freedesktop.DBus.Properties") == 0
        else { return nil }
        var arguments = DBusMessageIter()
        guard dbus_message_iter_init(raw, &arguments) != 0,
            dbus_message_iter_get_arg_type(&arguments) == CDBUS_TYPE_STRING
        else { return nil }
        var name: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&arguments, &name)
        guard let name, strcmp(name, interface) == 0, dbus_message_iter_next(&arguments) != 0,
            dbus_message_iter_get_arg_type(&arguments) == CDBUS_TYPE_ARRAY
        else { return nil }
        // The dictionary: exactly one entry, the property, holding a byte array.
        var entries = DBusMessageIter()
        dbus_message_iter_recurse(&arguments, &entries)
        guard dbus_message_iter_get_arg_type(&entries) == CDBUS_TYPE_DICT_ENTRY else { return nil }
        var entry = DBusMessageIter()
        dbus_message_iter_recurse(&entries, &entry)
        var key: UnsafePointer<CChar>?
        guard dbus_message_iter_get_arg_type(&entry) == CDBUS_TYPE_STRING else { return nil }
        dbus_message_iter_get_basic(&entry, &key)
        guard let key, strcmp(key, property) == 0, dbus_message_iter_next(&entry) != 0,
            dbus_message_iter_get_arg_type(&entry) == CDBUS_TYPE_VARIANT
        else { return nil }
        var variant = DBusMessageIter()
        dbus_message_iter_recurse(&entry, &variant)
        guard dbus_message_iter_get_arg_type(&variant) == CDBUS_TYPE_ARRAY,
            dbus_message_iter_get_element_type(&variant) == CDBUS_TYPE_BYTE
        else { return nil }
        guard dbus_message_iter_next(&entries) == 0 else { return nil }  // a second changed property
        // No invalidated properties.
        if dbus_message_iter_next(&arguments) != 0 {
            guard dbus_message_iter_get_arg_type(&arguments) == CDBUS_TYPE_ARRAY else { return nil }
            var invalidated = DBusMessageIter()
            dbus_message_iter_recurse(&arguments, &invalidated)
            guard dbus_message_iter_get_arg_type(&invalidated) == CDBUS_TYPE_INVALID else { return nil }
        }
        var bytes = DBusMessageIter()
        dbus_message_iter_recurse(&variant, &bytes)
        var pointer: UnsafeMutablePointer<UInt8>?
        var count: Int32 = 0
        dbus_message_iter_get_fixed_array(&bytes, &pointer, &count)
        guard let pointer, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
    }
}
