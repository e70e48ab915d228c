import BlueZ
@_spi(Bench) import Bridge
import Locks
import WakePipe

/// One benchmark gateway's BlueZ, in memory: one powered adapter, `hci0`, and the devices this gateway hears
/// (`ScaleTopology`), each at a fixed RSSI, there from the start as after a scan. Connecting takes no time
/// (`ScaleLink`). The fleet's traffic and decisions are the real gateway's; only the radio is left out, which
/// fifty BlueZ stacks on two cores would measure instead of the fleet.
final class ScaleCentral: BluetoothCentral {
    static let adapter = "hci0"
    static let adapterPath = "/org/bluez/hci0"

    private let devices: [String: BlueZDevice]
    private let links: Mutex<[String: ScaleLink]> = Mutex([:])
    private let followers = Mutex<[AsyncStream<BlueZEvent>.Continuation]>([])

    /// The devices `heard` (address, name and RSSI each) on this gateway's adapter.
    init(heard: [(address: String, name: String, rssi: Int16)]) {
        var devices: [String: BlueZDevice] = [:]
        for sighting in heard {
            var device = BlueZDevice(address: sighting.address, name: sighting.name, rssi: sighting.rssi)
            device.adapterPath = Self.adapterPath
            device.path = Self.adapterPath + "/dev_" + sighting.address.replacingOccurrences(of: ":", with: "_")
            devices[device.path] = device
        }
        self.devices = devices
    }

    func start() async {}

    func stop() { for follower in followers.withLock({ $0 }) { follower.finish() } }

    func registerPairingAgent() async {}

    /// Nothing changes in this BlueZ: the stream only ends at `stop`.
    func events() async -> AsyncStream<BlueZEvent> {
        let (stream, continuation) = AsyncStream<BlueZEvent>.makeStream()
        followers.withLock { $0.append(continuation) }
        return stream
    }

    var isBusConnected: Bool { get async { true } }

    /// The bus is never lost: returns only when the caller is cancelled.
    func busLost() async {
        let (stream, _) = AsyncStream<Never>.makeStream()
        for await _ in stream {}
    }

    var descriptorHost: (any DescriptorHost)? { nil }
    var isServiceRunning: Bool { get async { true } }
    var accessDenied: Bool { false }
    var droppedNotifications: Int { 0 }

    func adapter(named name: String) async -> BlueZAdapter? {
        name == Self.adapter ? BlueZAdapter(path: Self.adapterPath, address: "00:AA:00:00:00:00") : nil
    }

    func devices(on adapterPath: String) async -> [BlueZDevice] {
        adapterPath == Self.adapterPath ? devices.values.sorted { $0.path < $1.path } : []
    }

    func device(at path: String) async -> BlueZDevice? { devices[path] }
    func startDiscovery(adapterPath: String) async throws -> Bool { true }
    func disconnect(devicePath: String) async throws { await links.withLock { $0[devicePath] }?.disconnect() }
    func waitUntilDisconnected(devicePath: String, timeout: Duration) async -> Bool { true }
    func pair(devicePath: String) async throws {}
    func setTrusted(devicePath: String) async throws {}
    func removeDevice(devicePath: String, adapterPath: String) async throws {}

    func link(to device: BlueZDevice) -> any GATTLink {
        links.withLock { links in
            if let link = links[device.path] { return link }
            let link = ScaleLink(device: device)
            links[device.path] = link
            return link
        }
    }
}
