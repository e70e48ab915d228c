/// An error with its D-Bus name, as a remote peer (for example BlueZ) or libdbus reported it.
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The D-Bus error name, such as `org.bluez.Error.Failed`.
    public var name: String
    /// The human-readable message that came with it.
    public var message: String

    public init(name: String, message: String = "") {
        self.name = name
        self.message = message
    }

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    // Names this project raises or tests for.
    public static let failedName = "org.freedesktop.DBus.Error.Failed"
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    public static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    public static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"

    /// The call got no reply within its timeout.
    public var isTimeout: Bool { name == Self.noReplyName || name == "org.freedesktop.DBus.Error.Timeout" }

    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: invalidArgsName, message: message)
    }
}

/// A value that cannot be put into a message, found before libdbus sees it (libdbus aborts the process
/// on malformed arguments, so every check happens here first).
public struct DBusMarshalError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { "cannot marshal D-Bus value: \(reason)" }
}
