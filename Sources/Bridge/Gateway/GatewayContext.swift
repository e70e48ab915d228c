import BlueZ
import Logging

/// What every feature of the gateway reaches the outside through and reads its settings from. `Bridge.init`
/// makes one and hands it to each feature; the features' own state stays theirs.
struct GatewayContext: Sendable {
    /// The settings it started with; those that change at run time are read from `live`.
    let configuration: BridgeConfiguration
    /// The settings `request/options` changes at run time (which devices connect by themselves).
    let live: LiveSettings
    let topics: TopicMap
    let logger: Logger
    let mqtt: any BrokerConnection
    let publisher: BrokerPublisher
    /// BlueZ: on the system bus (or `DBUS_SYSTEM_BUS_ADDRESS`), or in memory under test.
    let bluez: any BluetoothCentral
    let drivers: [any FamilyDriver]
    /// Warnings that other clients on the broker can cause, at most a few a minute each.
    let warnings: WarningLimiter
    /// Work that runs beside the receive path (requests, scan ends, inventory updates, settling adapters),
    /// ended at shutdown.
    let background: OwnedTasks

    /// A warning another client on the broker can cause: written at most a few times a minute per kind, the next
    /// one saying how many were left out meanwhile.
    func warn(_ message: String, kind: String, metadata: Logger.Metadata) {
        warnings.warn(message, kind: kind, metadata: metadata, to: logger)
    }

    /// A device's `<id>`: its alias now (`request/rename` changes it), else its address in lower-case hex.
    func id(of address: String) -> String {
        live.alias(of: address) ?? DeviceID.from(address: address)
    }

    func driver(of family: DeviceFamily) -> (any FamilyDriver)? {
        drivers.first { $0.family == family }
    }

    // MARK: Adapters

    /// `hci0` for `/org/bluez/hci0` when it is one of the configured adapters, else nil.
    func adapterName(_ path: String) -> String? {
        guard path.hasPrefix("/org/bluez/") else { return nil }
        let name = String(path.dropFirst("/org/bluez/".count))
        return configuration.adapters.contains(name) ? name : nil
    }

    func adapterPath(_ name: String) -> String { "/org/bluez/" + name }

    /// The device's objects on every configured adapter that has seen it, in the configured order.
    func objects(of address: String) async -> [BlueZDevice] {
        let address = address.uppercased()
        var objects: [BlueZDevice] = []
        for name in configuration.adapters {
            if let device = await bluez.devices(on: adapterPath(name)).first(where: {
                $0.address.uppercased() == address
            }) {
                objects.append(device)
            }
        }
        return objects
    }

    /// Every device any adapter has seen, once per address, with its objects on the configured adapters
    /// (in their order).
    func sightings() async -> [[BlueZDevice]] {
        var byAddress: [String: [BlueZDevice]] = [:]
        var order: [String] = []
        for name in configuration.adapters {
            for device in await bluez.devices(on: adapterPath(name)) {
                if byAddress[device.address] == nil { order.append(device.address) }
                byAddress[device.address, default: []].append(device)
            }
        }
        return order.compactMap { byAddress[$0] }
    }
}
