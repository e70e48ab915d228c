/// A signal match rule, as sent to the bus with AddMatch and applied again locally to route signals
/// to the right subscriber.
public struct DBusMatchRule: Sendable, Hashable {
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: String?
    public var pathNamespace: String?
    public var arg0: String?

    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil,
        path: String? = nil, pathNamespace: String? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
    }

    /// The rule in the bus's syntax, e.g. `type='signal',sender='org.bluez',member='InterfacesAdded'`.
    public var text: String {
        var parts = ["type='signal'"]
        for (key, value) in [
            ("sender", sender), ("interface", interface), ("member", member),
            ("path", path), ("path_namespace", pathNamespace), ("arg0", arg0),
        ] {
            if let value { parts.append("\(key)='\(value)'") }
        }
        return parts.joined(separator: ",")
    }

    /// Local matching. A well-known sender name cannot be compared with the unique name a signal
    /// carries, so it is left to the bus (which resolves the current owner, also across restarts);
    /// unique names and the bus driver's own name are compared here.
    func matches(_ signal: DBusSignal) -> Bool {
        if let sender, sender.hasPrefix(":") || sender == "org.freedesktop.DBus", signal.sender != sender {
            return false
        }
        if let interface, signal.interface != interface { return false }
        if let member, signal.member != member { return false }
        if let path, signal.path != path { return false }
        if let pathNamespace, pathNamespace != "/",
            signal.path != pathNamespace, !signal.path.hasPrefix(pathNamespace + "/")
        {
            return false
        }
        if let arg0, signal.arguments.first?.string != arg0 { return false }
        return true
    }
}

/// A received signal.
public struct DBusSignal: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]

    public init(sender: String, path: String, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}
