import DBus

/// BlueZ's object tree as last reported: GetManagedObjects, then InterfacesAdded/Removed and
/// PropertiesChanged. Emptied when `org.bluez` loses its owner (after a crash no InterfacesRemoved
/// arrives), reloaded when it gets one again.
actor BlueZObjectCache {
    typealias Interfaces = [String: [String: DBusValue]]

    private(set) var objects: [String: Interfaces] = [:]
    /// Every Device1 object, parsed, by path: kept as the objects change, since the gateway asks for an adapter's
    /// devices every second (a fleet's turn) and on device events. Parsing every object on each ask cost more
    /// than the rest of an idle gateway together (callgrind, the real bluetoothd with five adapters).
    private(set) var devices: [String: BlueZDevice] = [:]
    private(set) var serviceRunning = false
    private var subscribers: [Int: AsyncStream<BlueZEvent>.Continuation] = [:]
    private var nextSubscriber = 0
    private var waiters:
        [Int: (path: String, check: @Sendable (Interfaces?) -> Bool, continuation: CheckedContinuation<Bool, Never>)] =
            [:]
    private var nextWaiter = 0

    func events() -> AsyncStream<BlueZEvent> {
        let (stream, continuation) = AsyncStream<BlueZEvent>.makeStream()
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.unsubscribe(id) } }
        return stream
    }

    private func unsubscribe(_ id: Int) { subscribers[id] = nil }

    private func publish(_ event: BlueZEvent) {
        for continuation in subscribers.values { continuation.yield(event) }
    }

    // MARK: Updates

    /// Merges a GetManagedObjects snapshot. Objects announced by signals meanwhile are kept. Nothing is loaded unless
    /// `current` holds (checked here, in order with `serviceVanished`): a snapshot of an owner of `org.bluez` that has
    /// gone since would bring back its objects. Returns whether it loaded.
    @discardableResult
    func load(_ snapshot: [String: Interfaces], if current: @Sendable () -> Bool = { true }) -> Bool {
        guard current() else { return false }
        for (path, interfaces) in snapshot {
            objects[path, default: [:]].merge(interfaces) { $1 }
            if interfaces[BlueZInterface.device] != nil { refreshDevice(path) }
        }
        serviceRunning = true
        publish(.serviceAppeared)
        for path in snapshot.keys { notifyWaiters(path) }
        return true
    }

    func serviceVanished() {
        guard serviceRunning || !objects.isEmpty else { return }
        let paths = Array(objects.keys)
        objects = [:]
        devices = [:]
        serviceRunning = false
        publish(.serviceVanished)
        for path in paths { notifyWaiters(path) }
    }

    func interfacesAdded(_ path: String, _ interfaces: Interfaces) {
        objects[path, default: [:]].merge(interfaces) { $1 }
        if interfaces[BlueZInterface.device] != nil { refreshDevice(path) }
        publish(.interfacesAdded(path: path, interfaces: Array(interfaces.keys)))
        notifyWaiters(path)
    }

    func interfacesRemoved(_ path: String, _ names: [String]) {
        for name in names { objects[path]?[name] = nil }
        if objects[path]?.isEmpty == true { objects[path] = nil }
        if names.contains(BlueZInterface.device) { refreshDevice(path) }
        publish(.interfacesRemoved(path: path, interfaces: names))
        notifyWaiters(path)
    }

    func propertiesChanged(_ path: String, _ interface: String, _ changed: [String: DBusValue], _ invalidated: [String])
    {
        guard objects[path]?[interface] != nil else { return }
        // A characteristic's Value is routed to its notification stream, not stored: it changes at stream rate.
        if interface != BlueZInterface.gattCharacteristic || changed.keys.contains(where: { $0 != "Value" }) {
            for (key, value) in changed where key != "Value" || interface != BlueZInterface.gattCharacteristic {
                objects[path]?[interface]?[key] = value.unwrapped
            }
            for key in invalidated { objects[path]?[interface]?[key] = nil }
        }
        if interface == BlueZInterface.device { refreshDevice(path) }
        publish(.propertiesChanged(path: path, interface: interface, changed: changed, invalidated: invalidated))
        notifyWaiters(path)
    }

    /// The devices of the adapter at `adapterPath`, by path.
    func devices(on adapterPath: String) -> [BlueZDevice] {
        devices.values.filter { $0.adapterPath == adapterPath }.sorted { $0.path < $1.path }
    }

    private func refreshDevice(_ path: String) {
        devices[path] = objects[path]?[BlueZInterface.device].flatMap { BlueZDevice(path: path, properties: $0) }
    }

    // MARK: Waiting for a state

    /// Waits until `check` holds for the object at `path`, or `timeout` passes; returns whether it held.
    func wait(for path: String, timeout: Duration, until check: @escaping @Sendable (Interfaces?) -> Bool) async -> Bool
    {
        if check(objects[path]) { return true }
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            waiters[id] = (path, check, continuation)
        }
    }

    private func expire(_ id: Int) {
        waiters.removeValue(forKey: id)?.continuation.resume(returning: false)
    }

    private func notifyWaiters(_ path: String) {
        for (id, waiter) in waiters where waiter.path == path && waiter.check(objects[path]) {
            waiters.removeValue(forKey: id)
            waiter.continuation.resume(returning: true)
        }
    }
}
