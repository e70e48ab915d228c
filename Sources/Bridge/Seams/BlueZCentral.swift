import BlueZ
import DBus
import Logging
import WakePipe

/// The gateway's BlueZ: bluetoothd on the system bus (or `DBUS_SYSTEM_BUS_ADDRESS`), through `BlueZClient`.
struct BlueZCentral: BluetoothCentral {
    let connection: DBusConnection
    let client: BlueZClient

    init(acquireNotify: Bool, operationTimeout: Duration) throws {
        connection = try DBusConnection.system(logger: Logger(label: "gatt2mqtt.dbus"))
        client = BlueZClient(
            connection: connection, logger: Logger(label: "gatt2mqtt.bluez"), acquireNotify: acquireNotify,
            operationTimeout: operationTimeout)
    }

    func start() async { await client.start() }

    func stop() {
        client.stop()
        connection.close()
    }

    func registerPairingAgent() async { await client.registerPairingAgent() }
    func events() async -> AsyncStream<BlueZEvent> { await client.events() }
    var isBusConnected: Bool { get async { await connection.isConnected } }
    func busLost() async { await connection.disconnected() }
    var descriptorHost: (any DescriptorHost)? { connection }
    var isServiceRunning: Bool { get async { await client.isServiceRunning } }
    var accessDenied: Bool { client.accessDenied }
    var droppedNotifications: Int { client.droppedNotifications }
    func adapter(named name: String) async -> BlueZAdapter? { await client.adapter(named: name) }
    func devices(on adapterPath: String) async -> [BlueZDevice] { await client.devices(on: adapterPath) }
    func device(at path: String) async -> BlueZDevice? { await client.device(at: path) }
    func startDiscovery(adapterPath: String) async throws -> Bool {
        try await client.startDiscovery(adapterPath: adapterPath)
    }
    func disconnect(devicePath: String) async throws { try await client.disconnect(devicePath: devicePath) }

    func waitUntilDisconnected(devicePath: String, timeout: Duration) async -> Bool {
        await client.waitUntilDisconnected(devicePath: devicePath, timeout: timeout)
    }

    func pair(devicePath: String) async throws { try await client.pair(devicePath: devicePath) }
    func setTrusted(devicePath: String) async throws { try await client.setTrusted(devicePath: devicePath) }

    func removeDevice(devicePath: String, adapterPath: String) async throws {
        try await client.removeDevice(devicePath: devicePath, adapterPath: adapterPath)
    }

    func link(to device: BlueZDevice) -> any GATTLink { DeviceLink(device: device, bluez: client) }
}
