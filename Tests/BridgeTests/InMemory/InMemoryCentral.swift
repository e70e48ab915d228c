import DBus
import Locks
import WakePipe

@testable import BlueZ
@_spi(Bench) @testable import Bridge

/// BlueZ in memory, for driving whole gateways without bluetoothd or a bus: powered adapters, devices the
/// test makes appear (each with the `InMemoryLink` its session reaches it through), and the object
/// manager's events the gateway follows, as `BlueZClient` reports them.
final class InMemoryCentral: BluetoothCentral {
    private struct State {
        var adapters: [String: BlueZAdapter] = [:]
        var devices: [String: BlueZDevice] = [:]
        var links: [String: InMemoryLink] = [:]
        var followers: [AsyncStream<BlueZEvent>.Continuation] = []
        var discovering: [String] = []
        var removed: [String] = []
        var whileRemoving: (@Sendable (String) async -> Void)?
        var busConnected = true
        var busLost = false
        var busLossWaiters: [AsyncStream<Never>.Continuation] = []
        var busChecks = 0
        var busCheckWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    /// Powered adapters named `adapters` (`hci0`, …).
    init(adapters: [String]) {
        state.withLock { state in
            for (index, name) in adapters.enumerated() {
                let path = "/org/bluez/\(name)"
                state.adapters[path] = BlueZAdapter(
                    path: path, properties: ["Address": .string("00:AA:00:00:00:0\(index)"), "Powered": .boolean(true)])
            }
        }
    }

    // MARK: What the test does

    /// `link`'s device appears on `adapter` (the link's own when nil), heard at `rssi`.
    func add(_ link: InMemoryLink, on adapter: String? = nil, rssi: Int16? = -60) {
        add(link, heardBy: [adapter ?? String(link.device.adapterPath.split(separator: "/").last ?? ""): rssi])
    }

    /// `link`'s device appears on several adapters at once, each hearing it at its RSSI: every adapter keeps
    /// its own object of the device, as bluetoothd does.
    func add(_ link: InMemoryLink, heardBy sightings: [String: Int16?]) {
        let devices = sightings.keys.sorted().map { adapter in
            var device = link.device
            device.adapterPath = "/org/bluez/\(adapter)"
            device.path = device.adapterPath + "/dev_" + device.address.replacingOccurrences(of: ":", with: "_")
            device.rssi = sightings[adapter] ?? nil
            return device
        }
        state.withLock { state in
            for device in devices {
                state.devices[device.path] = device
                state.links[device.path] = link
            }
        }
        for device in devices { emit(.interfacesAdded(path: device.path, interfaces: [BlueZInterface.device])) }
    }

    /// The device at `path` is heard again at `rssi`, as bluetoothd reports every advertisement during discovery.
    func hear(_ path: String, rssi: Int16) {
        guard
            state.withLock({
                $0.devices[path]?.rssi = rssi
                return $0.devices[path] != nil
            })
        else { return }
        emit(
            .propertiesChanged(
                path: path, interface: BlueZInterface.device, changed: ["RSSI": .int16(rssi)], invalidated: []))
    }

    /// Runs inside `removeDevice`, before the device is gone: bluetoothd's `RemoveDevice` takes a while, and the
    /// device is still reported until it answers.
    func onRemoveDevice(_ body: @escaping @Sendable (String) async -> Void) {
        state.withLock { $0.whileRemoving = body }
    }

    /// The device at `path` drops its link, as bluetoothd reports it.
    func dropLink(of path: String) async {
        let link = state.withLock { state -> InMemoryLink? in
            state.devices[path]?.connected = false
            return state.links[path]
        }
        await link?.disconnect()
        emit(
            .propertiesChanged(
                path: path, interface: BlueZInterface.device, changed: ["Connected": .boolean(false)], invalidated: []))
    }

    /// The device at `path` loses its GATT services while its link stays up, as bluetoothd reports it when the
    /// peripheral's GATT application ends.
    func removeServices(of path: String) {
        emit(.interfacesRemoved(path: path + "/service0010", interfaces: [BlueZInterface.gattService]))
    }

    /// The bus connection is lost (false) or answers again: what the gateway's health check (`isBusConnected`) says.
    func setBusConnected(_ connected: Bool) { state.withLock { $0.busConnected = connected } }

    /// The bus goes away for good: `busLost()` returns, and the bus no longer answers.
    func loseBus() {
        let waiters = state.withLock { state in
            state.busConnected = false
            state.busLost = true
            defer { state.busLossWaiters = [] }
            return state.busLossWaiters
        }
        for continuation in waiters { continuation.finish() }
    }

    /// How often the gateway has asked whether the bus answers: the health file asks once a round, so a test
    /// waits for rounds with `waitForBusChecks(_:)` rather than sleeping.
    var busChecks: Int { state.withLock { $0.busChecks } }

    /// Returns once the gateway has asked `count` times in all.
    func waitForBusChecks(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                if state.busChecks >= count { return true }
                state.busCheckWaiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// The adapters discovery was started on, in order.
    var discoveryStarts: [String] { state.withLock { $0.discovering } }
    /// The devices the gateway removed (`forget`).
    var removedDevices: [String] { state.withLock { $0.removed } }

    private func emit(_ event: BlueZEvent) {
        for follower in state.withLock({ $0.followers }) { follower.yield(event) }
    }

    // MARK: BluetoothCentral

    func start() async {}
    func stop() { for follower in state.withLock({ $0.followers }) { follower.finish() } }
    func registerPairingAgent() async {}

    func events() async -> AsyncStream<BlueZEvent> {
        let (stream, continuation) = AsyncStream<BlueZEvent>.makeStream()
        state.withLock { $0.followers.append(continuation) }
        return stream
    }

    var isBusConnected: Bool {
        get async {
            let (connected, reached) = state.withLock { state in
                state.busChecks += 1
                let reached = state.busCheckWaiters.filter { $0.count <= state.busChecks }.map(\.continuation)
                state.busCheckWaiters.removeAll { $0.count <= state.busChecks }
                return (state.busConnected, reached)
            }
            for waiter in reached { waiter.resume() }
            return connected
        }
    }
    /// Ends on `loseBus()` or when the caller is cancelled (an AsyncStream's iteration ends on either).
    func busLost() async {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        let lost = state.withLock { state in
            if !state.busLost { state.busLossWaiters.append(continuation) }
            return state.busLost
        }
        if lost { return }
        for await _ in stream {}
    }

    var descriptorHost: (any DescriptorHost)? { nil }
    var isServiceRunning: Bool { get async { true } }
    var accessDenied: Bool { false }
    var droppedNotifications: Int { 0 }

    func adapter(named name: String) async -> BlueZAdapter? { state.withLock { $0.adapters["/org/bluez/\(name)"] } }

    func devices(on adapterPath: String) async -> [BlueZDevice] {
        state.withLock { $0.devices.values.filter { $0.adapterPath == adapterPath }.sorted { $0.path < $1.path } }
    }

    func device(at path: String) async -> BlueZDevice? { state.withLock { $0.devices[path] } }

    func startDiscovery(adapterPath: String) async throws -> Bool {
        state.withLock { state in
            state.adapters[adapterPath]?.discovering = true
            state.discovering.append(adapterPath)
        }
        return true
    }

    func disconnect(devicePath: String) async throws { await dropLink(of: devicePath) }

    func waitUntilDisconnected(devicePath: String, timeout: Duration) async -> Bool { true }

    func pair(devicePath: String) async throws { state.withLock { $0.devices[devicePath]?.paired = true } }

    func setTrusted(devicePath: String) async throws {}

    func removeDevice(devicePath: String, adapterPath: String) async throws {
        await state.withLock({ $0.whileRemoving })?(devicePath)
        state.withLock { state in
            state.devices.removeValue(forKey: devicePath)
            state.links.removeValue(forKey: devicePath)
            state.removed.append(devicePath)
        }
        emit(.interfacesRemoved(path: devicePath, interfaces: [BlueZInterface.device]))
    }

    func link(to device: BlueZDevice) -> any GATTLink {
        state.withLock { $0.links[device.path] } ?? InMemoryLink(device: device, services: [], values: [:])
    }
}
