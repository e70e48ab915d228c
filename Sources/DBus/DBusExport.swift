/// A method call received by an exported object.
public struct DBusMethodCall: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// An interface of an exported object: its methods and properties.
public struct DBusInterface: Sendable {
    /// A method's implementation. A file descriptor it returns (`.unixFD`, at the top level) is handed
    /// over: the connection closes it once the reply carries its own duplicate.
    public typealias Method = @Sendable (DBusMethodCall) async throws -> [DBusValue]

    public var name: String
    public var methods: [String: Method]
    /// The current property values (without variant wrappers). Called on the connection's queue:
    /// keep it quick and thread-safe.
    public var properties: @Sendable () -> [String: DBusValue]
    /// Applies a Properties.Set; nil makes every property read-only.
    public var setProperty: (@Sendable (String, DBusValue) throws -> Void)?

    public init(
        name: String,
        methods: [String: Method] = [:],
        properties: @escaping @Sendable () -> [String: DBusValue] = { [:] },
        setProperty: (@Sendable (String, DBusValue) throws -> Void)? = nil
    ) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.setProperty = setProperty
    }
}

/// An object this process serves on the bus.
public struct DBusObject: Sendable {
    public var path: String
    public var interfaces: [DBusInterface]

    public init(path: String, interfaces: [DBusInterface]) {
        self.path = path
        self.interfaces = interfaces
    }

    func interface(named name: String) -> DBusInterface? { interfaces.first { $0.name == name } }

    /// `a{sa{sv}}`: every interface with its properties, as GetManagedObjects and InterfacesAdded carry it.
    var interfacesAndProperties: DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "a{sv}",
            interfaces.map { DBusDictEntry(.string($0.name), .properties($0.properties())) })
    }
}

/// Standard interface names.
public enum DBusStandardInterface {
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let introspectable = "org.freedesktop.DBus.Introspectable"
}
