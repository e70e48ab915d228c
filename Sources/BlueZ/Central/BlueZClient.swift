import DBus
import Locks
import Logging

/// A BlueZ central: the object cache, adapters and devices, discovery, connections and GATT
/// operations. It survives bluetoothd restarts: when `org.bluez` loses its owner the cache empties
/// and ``BlueZEvent/serviceVanished`` is sent; when it gets one again the cache reloads and
/// ``BlueZEvent/serviceAppeared`` is sent. Sessions (discovery, notify) must then be started again.
public final class BlueZClient: Sendable {
    public let connection: DBusConnection
    let cache = BlueZObjectCache()
    let router = NotificationRouter()
    let notifySockets: AcquiredNotifySockets
    let discoveryGate = DiscoveryGate()
    /// Connection attempts, one at a time per adapter.
    let adapterTurns = Turns()
    /// Discovery changes (start, pause, resume, stop), one at a time per adapter.
    let discoveryTurns = Turns()
    /// GATT operations (connect, reads, writes, notification set-up), one at a time per device.
    let gattTurns = Turns()

    /// Notification values dropped because their consumer fell too far behind (see `NotificationRouter`).
    public var droppedNotifications: Int { router.droppedCount }
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let refused = Mutex(false)
    let logger: Logger

    /// Timeout of a single GATT read, write or notify set-up (`bluez.operation_timeout_s`).
    public let operationTimeout: Duration

    /// Whether notifications are acquired (AcquireNotify) where BlueZ offers it; false: StartNotify only.
    let preferAcquiredNotifications: Bool

    public init(
        connection: DBusConnection, logger: Logger = Logger(label: "bluez"), acquireNotify: Bool = true,
        operationTimeout: Duration = .seconds(5)
    ) {
        self.connection = connection
        self.logger = logger
        self.operationTimeout = operationTimeout
        preferAcquiredNotifications = acquireNotify
        notifySockets = AcquiredNotifySockets(connection: connection, router: router)
    }

    /// Starts following BlueZ. Returns once the first snapshot is loaded (or BlueZ is known absent).
    public func start() async {
        // Subscribe before reading the snapshot so that nothing falls between the two.
        // Notifications go straight from the bus queue to their streams; the rest through `handle`.
        let router = self.router
        // A notification goes from the bus thread to its stream or lane. One nobody listens on ends here too:
        // a Value change is never cached, so decoding it for `handle` (another client's StartNotify on a
        // device this bridge does not serve, at that device's rate) would only drop it later.
        connection.tapByteProperty(interface: BlueZInterface.gattCharacteristic, property: "Value") { path, bytes in
            router.deliver(bytes, to: path)
            return true
        }
        let bluezSignals = connection.signals(matching: DBusMatchRule(sender: BlueZInterface.service))
        let ownerChanges = connection.signals(
            matching: DBusMatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                arg0: BlueZInterface.service))
        let signalTask = Task { [self] in
            for await signal in bluezSignals { await handle(signal) }
        }
        let ownerTask = Task { [self] in
            for await signal in ownerChanges {
                let newOwner = signal.arguments.count > 2 ? signal.arguments[2].string ?? "" : ""
                if newOwner.isEmpty {
                    logger.warning("org.bluez vanished")
                    endAllStreams()
                    await cache.serviceVanished()
                } else {
                    logger.info("org.bluez appeared", metadata: ["owner": "\(newOwner)"])
                    await reload()
                }
            }
        }
        tasks.withLock { $0 += [signalTask, ownerTask] }
        await reload()
    }

    /// Stops following BlueZ and ends every stream.
    public func stop() {
        tasks.withLock { tasks in
            for task in tasks { task.cancel() }
            tasks = []
        }
        endAllStreams()
    }

    /// Changes to BlueZ's objects, from now on.
    public func events() async -> AsyncStream<BlueZEvent> { await cache.events() }

    public var isServiceRunning: Bool { get async { await cache.serviceRunning } }

    private func reload() async {
        do {
            let reply = try await connection.call(
                destination: BlueZInterface.service, path: "/", interface: DBusStandardInterface.objectManager,
                member: "GetManagedObjects", timeout: .seconds(5))
            refused.withLock { $0 = false }
            await cache.load(Self.managedObjects(reply.first))
        } catch {
            let denied = (error as? DBusError)?.name == "org.freedesktop.DBus.Error.AccessDenied"
            refused.withLock { $0 = denied }
            if denied {
                logger.error("\(BusPolicyRefusal.explanation(busSaid: "\(error)"))")
            } else {
                logger.info("BlueZ is not available yet: \(error)")
            }
        }
    }

    /// Whether the bus refused the last attempt to read BlueZ's objects (its policy for `org.bluez`).
    public var accessDenied: Bool { refused.withLock { $0 } }

    static func managedObjects(_ value: DBusValue?) -> [String: BlueZObjectCache.Interfaces] {
        var result: [String: BlueZObjectCache.Interfaces] = [:]
        for (path, entry) in value?.stringKeyed ?? [:] {
            result[path] = interfaces(entry)
        }
        return result
    }

    static func interfaces(_ value: DBusValue) -> BlueZObjectCache.Interfaces {
        var result: BlueZObjectCache.Interfaces = [:]
        for (name, properties) in value.stringKeyed ?? [:] {
            result[name] = (properties.stringKeyed ?? [:]).mapValues(\.unwrapped)
        }
        return result
    }

    private func handle(_ signal: DBusSignal) async {
        switch (signal.interface, signal.member) {
        case (DBusStandardInterface.properties, "PropertiesChanged"):
            guard signal.arguments.count >= 2, let interface = signal.arguments[0].string,
                let changed = signal.arguments[1].stringKeyed
            else { return }
            if interface == BlueZInterface.gattCharacteristic, let value = changed["Value"]?.bytes {
                router.deliver(value, to: signal.path)
                if changed.count == 1 { return }  // the hot path: a notification and nothing else
            }
            let invalidated = signal.arguments.count > 2 ? signal.arguments[2].strings ?? [] : []
            await cache.propertiesChanged(signal.path, interface, changed.mapValues(\.unwrapped), invalidated)
        case (DBusStandardInterface.objectManager, "InterfacesAdded"):
            guard signal.arguments.count == 2, let path = signal.arguments[0].string else { return }
            await cache.interfacesAdded(path, Self.interfaces(signal.arguments[1]))
        case (DBusStandardInterface.objectManager, "InterfacesRemoved"):
            guard signal.arguments.count == 2, let path = signal.arguments[0].string else { return }
            let names = signal.arguments[1].strings ?? []
            if names.contains(BlueZInterface.gattCharacteristic) || names.contains(BlueZInterface.device) {
                endStreams(under: path)
            }
            await cache.interfacesRemoved(path, names)
        default:
            break
        }
    }

    /// Ends the notification streams at `prefix` or below it, releasing the sockets of those acquired.
    func endStreams(under prefix: String) {
        notifySockets.release(under: prefix)
        router.close(under: prefix)
    }

    func endAllStreams() {
        notifySockets.releaseAll()
        router.closeAll()
    }
}
