import DBus

/// A snapshot of one org.bluez.Device1.
public struct BlueZDevice: Sendable, Equatable {
    public var path: String
    public var adapterPath: String
    public var address: String
    public var name: String?
    public var alias: String?
    public var serviceUUIDs: [String]
    /// The company identifiers of its advertised manufacturer data (the keys of `ManufacturerData`), in order.
    public var manufacturerIDs: [UInt16]
    public var rssi: Int16?
    /// The advertised TX power in dBm (the TX Power Level of the advertising data), when the device sends one.
    public var txPower: Int16?
    /// bluetoothd's `Connected` property (see `hasLink`).
    public var connected: Bool
    public var servicesResolved: Bool
    public var paired: Bool

    init?(path: String, properties: [String: DBusValue]) {
        guard let address = properties["Address"]?.string else { return nil }
        self.path = path
        self.address = address
        adapterPath = properties["Adapter"]?.string ?? Self.adapterPath(of: path)
        name = properties["Name"]?.string
        alias = properties["Alias"]?.string
        serviceUUIDs = (properties["UUIDs"]?.strings ?? []).map { $0.lowercased() }
        manufacturerIDs = Self.companies(properties["ManufacturerData"])
        rssi = Self.measuredRSSI(properties["RSSI"])
        txPower = properties["TxPower"]?.int16
        connected = properties["Connected"]?.bool ?? false
        servicesResolved = properties["ServicesResolved"]?.bool ?? false
        paired = properties["Paired"]?.bool ?? false
    }

    /// Whether the device has a link. BlueZ resolves services only over one, so `ServicesResolved` counts
    /// too: bluetoothd 5.66 never signals `Connected` when the ATT channel connects before the kernel's
    /// Device Connected event reaches it (seen under load on the real stack), and a `disconnect` request
    /// would then leave the link up. (A drop is still told by `Connected: false`, which bluetoothd sends
    /// whenever it had a link, before or after it clears `ServicesResolved`.)
    public var hasLink: Bool { connected || servicesResolved }

    /// A device as BlueZ would report it on adapter hci0 (for code that runs a session without BlueZ).
    public init(
        address: String, name: String?, serviceUUIDs: [String] = [], manufacturerIDs: [UInt16] = [], rssi: Int16? = nil,
        paired: Bool = false
    ) {
        path = "/org/bluez/hci0/dev_" + String(address.map { $0 == ":" ? "_" : $0 })
        adapterPath = "/org/bluez/hci0"
        self.address = address
        self.name = name
        alias = name
        self.serviceUUIDs = serviceUUIDs
        self.manufacturerIDs = manufacturerIDs
        self.rssi = rssi
        txPower = nil
        connected = false
        servicesResolved = false
        self.paired = paired
    }

    /// The keys of `ManufacturerData` (`a{qv}`), sorted; none for anything else.
    static func companies(_ value: DBusValue?) -> [UInt16] {
        (value?.dictEntries ?? []).compactMap(\.key.uint16).sorted()
    }

    /// `/org/bluez/hci0` of `/org/bluez/hci0/dev_…` (and of anything below it).
    static func adapterPath(of devicePath: String) -> String {
        devicePath.split(separator: "/").prefix(3).reduce("") { $0 + "/" + $1 }
    }

    /// An RSSI property as a measurement: nil when absent, and when it is 127, which the HCI
    /// specification defines as "RSSI is not available" (bluetoothd passes it through; btvirt's
    /// controllers report nothing else, since they model no radio).
    public static func measuredRSSI(_ value: DBusValue?) -> Int16? {
        guard let rssi = value?.int16, rssi != 127 else { return nil }
        return rssi
    }
}

/// A snapshot of one org.bluez.Adapter1.
public struct BlueZAdapter: Sendable, Equatable {
    public var path: String
    /// The kernel name, e.g. `hci0`.
    public var name: String { String(path.split(separator: "/").last ?? "") }
    public var address: String
    public var powered: Bool
    public var discovering: Bool

    init?(path: String, properties: [String: DBusValue]) {
        guard let address = properties["Address"]?.string else { return nil }
        self.path = path
        self.address = address
        powered = properties["Powered"]?.bool ?? false
        discovering = properties["Discovering"]?.bool ?? false
    }

    /// An adapter as BlueZ would report it (for code that runs a gateway without BlueZ, as the fleet-scale
    /// benchmark runs fifty).
    public init(path: String, address: String, powered: Bool = true, discovering: Bool = false) {
        self.path = path
        self.address = address
        self.powered = powered
        self.discovering = discovering
    }
}

/// How a characteristic write travels: with a response (`request`) or without (`command`).
public enum GattWriteType: String, Sendable {
    case request
    case command
}

/// An LE discovery filter (Adapter1.SetDiscoveryFilter).
public struct DiscoveryFilter: Sendable {
    public var serviceUUIDs: [String]
    public var rssi: Int16?
    /// Report every advertisement, so RSSI stays fresh.
    public var duplicateData: Bool

    public init(serviceUUIDs: [String] = [], rssi: Int16? = nil, duplicateData: Bool = true) {
        self.serviceUUIDs = serviceUUIDs
        self.rssi = rssi
        self.duplicateData = duplicateData
    }

    var dbusValue: DBusValue {
        var values: [String: DBusValue] = ["Transport": .string("le"), "DuplicateData": .boolean(duplicateData)]
        if !serviceUUIDs.isEmpty { values["UUIDs"] = .strings(serviceUUIDs) }
        if let rssi { values["RSSI"] = .int16(rssi) }
        return .properties(values)
    }
}
