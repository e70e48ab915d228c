import CDBus

/// Owns one reference to a libdbus message. Messages are not changed after they are built or
/// received, and libdbus's reference counting is thread-safe, so sharing one is safe.
final class DBusMessage: @unchecked Sendable {
    let raw: OpaquePointer

    /// Takes over a reference the caller owns (`new_*`, `steal_reply`).
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to a borrowed message (one passed to a filter).
    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    static func methodCall(destination: String?, path: String, interface: String?, member: String) throws -> DBusMessage
    {
        guard DBusNames.isValidObjectPath(path) else { throw DBusMarshalError("invalid object path '\(path)'") }
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else {
            throw DBusMarshalError("cannot build call \(interface ?? "").\(member)")
        }
        return DBusMessage(owning: raw)
    }

    static func signal(path: String, interface: String, member: String) throws -> DBusMessage {
        guard DBusNames.isValidObjectPath(path) else { throw DBusMarshalError("invalid object path '\(path)'") }
        guard let raw = dbus_message_new_signal(path, interface, member) else {
            throw DBusMarshalError("cannot build signal \(interface).\(member)")
        }
        return DBusMessage(owning: raw)
    }

    func methodReturn() -> DBusMessage? {
        dbus_message_new_method_return(raw).map { DBusMessage(owning: $0) }
    }

    func errorReply(_ error: DBusError) -> DBusMessage? {
        dbus_message_new_error(raw, error.name, error.message).map { DBusMessage(owning: $0) }
    }

    var type: Int32 { dbus_message_get_type(raw) }
    var isMethodCall: Bool { type == DBUS_MESSAGE_TYPE_METHOD_CALL }
    var isSignal: Bool { type == DBUS_MESSAGE_TYPE_SIGNAL }
    var isError: Bool { type == DBUS_MESSAGE_TYPE_ERROR }
    var noReplyExpected: Bool { dbus_message_get_no_reply(raw) != 0 }

    var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }

    func append(_ values: [DBusValue]) throws { try DBusMarshalling.append(values, to: raw) }
    func arguments() -> [DBusValue] { DBusMarshalling.decodeArguments(of: raw) }

    /// The error this message carries, when it is an error reply.
    func asError() -> DBusError? {
        guard isError else { return nil }
        return DBusError(name: errorName ?? DBusError.failedName, message: arguments().first?.string ?? "")
    }
}
