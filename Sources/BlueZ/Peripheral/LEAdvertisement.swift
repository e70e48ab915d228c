import DBus
import Locks

/// What a peripheral advertises, as plain data (`org.bluez.LEAdvertisement1` properties).
public struct LEAdvertisementDescription: Sendable, Equatable {
    /// `peripheral` (connectable) or `broadcast`.
    public var type: String
    /// The name centrals see; BlueZ puts it in the advertising or scan-response data.
    public var localName: String
    /// Advertised service UUIDs, full 128-bit lower-case.
    public var serviceUUIDs: [String]
    /// General discoverable. BlueZoo reports a device only if this is true (bluezoo.md §2).
    public var discoverable: Bool

    /// Creates an advertisement description.
    public init(type: String = "peripheral", localName: String, serviceUUIDs: [String], discoverable: Bool = true) {
        self.type = type
        self.localName = localName
        self.serviceUUIDs = serviceUUIDs.map { $0.lowercased() }
        self.discoverable = discoverable
    }
}

/// An exported `org.bluez.LEAdvertisement1` object, ready for `LEAdvertisingManager1.RegisterAdvertisement`.
/// No ManufacturerData: stock BlueZoo cannot serialise it (bluezoo.md §7).
public final class LEAdvertisement: Sendable {
    /// `org.bluez.LEAdvertisement1`.
    public static let interface = "org.bluez.LEAdvertisement1"

    /// The bus the object is served on.
    public let connection: DBusConnection
    /// Object path (outside `/org/bluez`).
    public let path: String
    private let current: Mutex<LEAdvertisementDescription>
    /// The advertisement this one repeats, whose description it always shows (see ``echo(at:)``).
    private let original: LEAdvertisement?

    /// Describes the advertisement; nothing is exported until ``export()``.
    public init(connection: DBusConnection, path: String, description: LEAdvertisementDescription) {
        self.connection = connection
        self.path = path
        self.current = Mutex(description)
        self.original = nil
    }

    private init(echoing original: LEAdvertisement, path: String) {
        self.connection = original.connection
        self.path = path
        self.current = Mutex(original.description)
        self.original = original
    }

    /// A second advertisement at `path` that always advertises what this one does, renames included.
    public func echo(at path: String) -> LEAdvertisement {
        LEAdvertisement(echoing: self, path: path)
    }

    /// What is advertised now.
    public var description: LEAdvertisementDescription { original?.description ?? current.withLock { $0 } }

    /// Changes what is advertised; it takes effect at the next registration, since BlueZ reads the
    /// properties once, when the advertisement is registered.
    public func update(_ description: LEAdvertisementDescription) {
        current.withLock { $0 = description }
    }

    /// Serves the object.
    public func export() throws {
        try connection.export(
            DBusObject(
                path: path,
                interfaces: [
                    DBusInterface(
                        name: Self.interface,
                        // BlueZ calls Release when it drops the advertisement on its own; the registrar
                        // registers again whenever BlueZ comes back, so nothing else is needed here.
                        methods: ["Release": { _ in [] }],
                        properties: { [weak self] in
                            guard let self else { return [:] }
                            let description = self.description
                            return [
                                "Type": .string(description.type), "LocalName": .string(description.localName),
                                "ServiceUUIDs": .strings(description.serviceUUIDs),
                                "Discoverable": .boolean(description.discoverable),
                            ]
                        })
                ]))
    }

    /// Stops serving the object.
    public func unexport() {
        connection.unexport(path: path)
    }
}
