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
    /// Each change of `org.bluez`'s owner starts a generation: a snapshot asked for in an earlier one is not loaded,
    /// and its retries (`readObjectsOfNewOwner`) end.
    private let snapshots = Mutex<(generation: Int, retries: Task<Void, Never>?)>((0, nil))
    let logger: Logger

    /// Timeout of a single GATT read, write or notify set-up (`bluez.operation_timeout_s`).
    public let operationTimeout: Duration

    /// How long one GetManagedObjects may take before it is asked again.
    let snapshotTimeout: Duration

    /// Whether notifications are acquired (AcquireNotify) where BlueZ offers it; false: StartNotify only.
    let preferAcquiredNotifications: Bool

    public init(
        connection: DBusConnection, logger: Logger = Logger(label: "bluez"), acquireNotify: Bool = true,
        operationTimeout: Duration = .seconds(5), snapshotTimeout: Duration = .seconds(5)
    ) {
        self.connection = connection
        self.logger = logger
        self.operationTimeout = operationTimeout
        self.snapshotTimeout = snapshotTimeout
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
                    _ = newSnapshotGeneration()
                    endAllStreams()
                    await cache.serviceVanished()
                } else {
                    logger.info("org.bluez appeared", metadata: ["owner": "\(newOwner)"])
                    await readObjectsOfNewOwner()
                }
            }
        }
        tasks.withLock { $0 += [signalTask, ownerTask] }
        await readObjectsOfNewOwner()
    }

    /// Stops following BlueZ and ends every stream.
    public func stop() {
        tasks.withLock { tasks in
            for task in tasks { task.cancel() }
            tasks = []
        }
        _ = newSnapshotGeneration()
        endAllStreams()
    }

    /// Changes to BlueZ's objects, from now on.
    public func events() async -> AsyncStream<BlueZEvent> { await cache.events() }

    public var isServiceRunning: Bool { get async { await cache.serviceRunning } }

    /// Reads BlueZ's objects, at the start or for a new owner of `org.bluez`, and asks again while that owner does not
    /// answer. A bluetoothd that has just taken its name may not answer the first GetManagedObjects in time (seen on
    /// the real stack under load, after a crash: 5 s without a reply); asked only once, the gateway then kept its
    /// adapter `missing` for good while bluetoothd was up. Returns after the first answer or refusal; the retries
    /// run on until an answer, or the next change of owner.
    private func readObjectsOfNewOwner() async {
        let generation = newSnapshotGeneration()
        if await readObjects(generation: generation, attempt: 1) { return }
        let retries = Task { [self] in
            var delay = Duration.milliseconds(500)
            for attempt in 2... {
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                if await readObjects(generation: generation, attempt: attempt) { return }
                delay = min(delay * 2, .seconds(5))
            }
        }
        snapshots.withLock { state in
            if state.generation == generation { state.retries = retries } else { retries.cancel() }
        }
    }

    /// Ends the last generation's retries and starts the next; returns its number.
    private func newSnapshotGeneration() -> Int {
        snapshots.withLock { state in
            state.retries?.cancel()
            state.retries = nil
            state.generation += 1
            return state.generation
        }
    }

    /// One GetManagedObjects; false when BlueZ has its name but did not answer it, so that it is asked again.
    private func readObjects(generation: Int, attempt: Int) async -> Bool {
        do {
            let reply = try await connection.call(
                destination: BlueZInterface.service, path: "/", interface: DBusStandardInterface.objectManager,
                member: "GetManagedObjects", timeout: snapshotTimeout)
            refused.withLock { $0 = false }
            let loaded = await cache.load(Self.managedObjects(reply.first)) { [self] in
                snapshots.withLock { $0.generation } == generation
            }
            if loaded, attempt > 1 { logger.info("BlueZ answered", metadata: ["attempt": "\(attempt)"]) }
            return true
        } catch {
            let busError = error as? DBusError
            let name = busError?.name
            let denied = name == "org.freedesktop.DBus.Error.AccessDenied"
            refused.withLock { $0 = denied }
            if denied {
                logger.error("\(BusPolicyRefusal.explanation(busSaid: "\(error)"))")
                return true
            }
            let answersLater =
                busError?.isTimeout == true || name == DBusError.unknownMethodName
                || name == DBusError.unknownObjectName
            guard answersLater else {
                // Not running: its name's next owner is announced (NameOwnerChanged).
                logger.info("BlueZ is not available yet: \(error)")
                return true
            }
            // The first time at info level; then at debug, as they come every few seconds while it stays so.
            let message: Logger.Message = "BlueZ has its name but did not answer; asking again: \(error)"
            if attempt == 1 { logger.info(message) } else { logger.debug(message, metadata: ["attempt": "\(attempt)"]) }
            return false
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
