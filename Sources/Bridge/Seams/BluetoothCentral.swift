import BlueZ
import WakePipe

/// What the gateway needs of BlueZ: the seam between the gateway's logic (device policy, placement,
/// requests, fleet) and bluetoothd. `BlueZCentral` is the real one, over the system bus; a gateway under
/// test runs on one in memory. A session reaches its device through the `GATTLink` this hands out.
/// Public to the benchmark only (`@_spi(Bench)`): `gatt2mqtt-bench --fleet-scale` runs fifty real gateways in one
/// process on a BlueZ in memory, since fifty BlueZ stacks would measure BlueZ, not the fleet's traffic.
@_spi(Bench)
public protocol BluetoothCentral: Sendable {
    /// Reads BlueZ's objects and follows their changes; `stop` lets go of them and closes the bus.
    func start() async
    func stop()
    /// Serves the pairing agent (Just Works) and makes it the default.
    func registerPairingAgent() async
    /// Every change from now on (taken before `start`, so that nothing is missed).
    func events() async -> AsyncStream<BlueZEvent>
    /// Whether the bus connection still answers (the watchdog's test).
    var isBusConnected: Bool { get async }
    /// Returns when the bus connection is lost for good (or closed), or when the calling task is cancelled.
    func busLost() async
    /// The thread whose poll loop may serve the broker's socket too; nil where there is none.
    var descriptorHost: (any DescriptorHost)? { get }
    var isServiceRunning: Bool { get async }
    /// Whether the bus policy refused this process BlueZ.
    var accessDenied: Bool { get }
    /// Notifications dropped because their consumer was behind.
    var droppedNotifications: Int { get }

    func adapter(named name: String) async -> BlueZAdapter?
    func devices(on adapterPath: String) async -> [BlueZDevice]
    func device(at path: String) async -> BlueZDevice?
    /// Starts discovery on the adapter; false when it already ran.
    func startDiscovery(adapterPath: String) async throws -> Bool
    func disconnect(devicePath: String) async throws
    /// Waits until the device has no link; false at the timeout.
    func waitUntilDisconnected(devicePath: String, timeout: Duration) async -> Bool
    func pair(devicePath: String) async throws
    func setTrusted(devicePath: String) async throws
    /// Forgets the device and its bond.
    func removeDevice(devicePath: String, adapterPath: String) async throws
    /// A session's way to its device.
    func link(to device: BlueZDevice) -> any GATTLink
}
