import DBus
import Logging

/// What happens to a registered peripheral, in order.
public enum PeripheralEvent: Sendable, Equatable {
    /// The application and advertisement are registered on the adapter, whose own address is given.
    /// Comes again after every re-registration (BlueZ restarted, or ``PeripheralRegistrar/register()``).
    case registered(adapterAddress: String, layout: GattHandleLayout)
    /// `org.bluez` left the bus: registration, subscriptions and links are gone.
    case stackLost
    /// A central connected (its Device1 path on our adapter).
    case centralConnected(devicePath: String)
    /// A central disconnected.
    case centralDisconnected(devicePath: String)
}

/// Which handle layout to register with.
public enum GattHandleLayoutChoice: Sendable, Equatable {
    /// `.explicit` under BlueZoo (it serves `/org/bluezoo`), `.assignedByStack` under bluetoothd.
    case automatic
    /// Always this one.
    case fixed(GattHandleLayout)
}

/// Registers a `GattApplication` and an `LEAdvertisement` on `/org/bluez/<adapter>` and keeps them
/// registered: when `org.bluez` comes back after a restart it registers again, retrying until the
/// adapter exists (bluetoothd owns its name before it exports adapters). It also reports the
/// connections of centrals to the adapter.
public actor PeripheralRegistrar {
    /// `org.bluez.GattManager1`.
    public static let gattManagerInterface = "org.bluez.GattManager1"
    /// `org.bluez.LEAdvertisingManager1`.
    public static let advertisingManagerInterface = "org.bluez.LEAdvertisingManager1"

    /// The adapter name, e.g. `hci1`.
    public nonisolated let adapter: String
    /// `/org/bluez/<adapter>`.
    public nonisolated let adapterPath: String
    /// What happens, in order; single consumer.
    public nonisolated let events: AsyncStream<PeripheralEvent>

    private let connection: DBusConnection
    private let application: GattApplication
    private let advertisement: LEAdvertisement
    /// Registered after `advertisement` when the advertising is repeated (see `init`).
    private let echo: LEAdvertisement?
    private let layoutChoice: GattHandleLayoutChoice
    private let retryInterval: Duration
    private let logger: Logger
    private let eventSink: AsyncStream<PeripheralEvent>.Continuation

    private var wanted = false
    private var registered = false
    private var registration: Task<Void, Never>?
    private var readvertising: Task<Void, Never>?
    private var watchers: [Task<Void, Never>] = []
    private var connectedCentrals: Set<String> = []

    /// Prepares the registrar; nothing happens until ``start()``.
    ///
    /// `repeatsAdvertising` registers the advertisement twice. The kernel then takes turns between the two
    /// identical instances every 2 s and switches advertising off and on at each turn. That is for btvirt's
    /// controllers: unlike a radio, which repeats an advertisement every interval, they report an advertiser
    /// once, when scanning or advertising is switched on. Linux drops a report that comes before its
    /// discovery has reached the "finding" state, so a scan that starts while the advertiser is already on
    /// can miss it for the whole scan (10 s). With turns, every scan hears the advertiser within 4 s.
    public init(
        connection: DBusConnection, adapter: String, application: GattApplication, advertisement: LEAdvertisement,
        repeatsAdvertising: Bool = false, layout: GattHandleLayoutChoice = .automatic,
        retryInterval: Duration = .milliseconds(500), logger: Logger = Logger(label: "bluez.peripheral")
    ) {
        self.connection = connection
        self.adapter = adapter
        self.adapterPath = "/org/bluez/\(adapter)"
        self.application = application
        self.advertisement = advertisement
        self.echo = repeatsAdvertising ? advertisement.echo(at: advertisement.path + "_repeat") : nil
        self.layoutChoice = layout
        self.retryInterval = retryInterval
        self.logger = logger
        (events, eventSink) = AsyncStream<PeripheralEvent>.makeStream()
    }

    /// Starts watching the bus and registers (retrying until BlueZ and the adapter are there).
    public func start() {
        guard watchers.isEmpty else { return }
        let owners = connection.signals(
            matching: DBusMatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                arg0: "org.bluez"))
        let changes = connection.signals(
            matching: DBusMatchRule(
                sender: "org.bluez", interface: DBusStandardInterface.properties, member: "PropertiesChanged",
                pathNamespace: adapterPath))
        let added = connection.signals(
            matching: DBusMatchRule(
                sender: "org.bluez", interface: DBusStandardInterface.objectManager, member: "InterfacesAdded"))
        let removed = connection.signals(
            matching: DBusMatchRule(
                sender: "org.bluez", interface: DBusStandardInterface.objectManager, member: "InterfacesRemoved"))
        watchers = [
            Task { [weak self] in
                for await signal in owners {
                    let newOwner = signal.arguments.dropFirst(2).first?.string ?? ""
                    await self?.ownerChanged(present: !newOwner.isEmpty)
                }
            },
            Task { [weak self] in
                for await signal in changes where signal.arguments.first?.string == "org.bluez.Device1" {
                    guard let connected = signal.arguments.dropFirst().first?.stringKeyed?["Connected"]?.bool else {
                        continue
                    }
                    await self?.central(signal.path, connected: connected)
                }
            },
            Task { [weak self] in
                for await signal in added {
                    guard let path = signal.arguments.first?.string,
                        let device = signal.arguments.dropFirst().first?.stringKeyed?["org.bluez.Device1"]?.stringKeyed,
                        let connected = device["Connected"]?.bool
                    else { continue }
                    await self?.central(path, connected: connected)
                }
            },
            Task { [weak self] in
                for await signal in removed {
                    guard let path = signal.arguments.first?.string,
                        signal.arguments.dropFirst().first?.strings?.contains("org.bluez.Device1") == true
                    else { continue }
                    await self?.central(path, connected: false)
                }
            },
        ]
        wanted = true
        scheduleRegistration()
    }

    /// Registers again after ``unregister()`` (a switched-off peripheral powering up).
    public func register() {
        wanted = true
        if !registered { scheduleRegistration() }
    }

    /// Withdraws the advertisement and the application (a peripheral switching off). Centrals still
    /// connected are disconnected first, from our side, as a peripheral that powers down drops its links.
    public func unregister() async {
        wanted = false
        registration?.cancel()
        registration = nil
        readvertising?.cancel()
        await disconnectCentrals()
        if registered {
            try? await unregisterAdvertisement()
            _ = try? await connection.call(
                destination: "org.bluez", path: adapterPath, interface: Self.gattManagerInterface,
                member: "UnregisterApplication", arguments: [.objectPath(application.rootPath)])
        }
        registered = false
        await application.dropSubscriptions()
    }

    /// Disconnects every central connected to the adapter (Device1.Disconnect on our side's object).
    public func disconnectCentrals() async {
        for path in connectedCentrals.sorted() {
            do {
                _ = try await connection.call(
                    destination: "org.bluez", path: path, interface: "org.bluez.Device1", member: "Disconnect")
            } catch {
                logger.warning("cannot disconnect \(path): \(error)")
            }
        }
    }

    // MARK: Bus events

    private func ownerChanged(present: Bool) async {
        if present {
            logger.info("org.bluez appeared")
            if wanted && !registered { scheduleRegistration() }
            return
        }
        logger.warning("org.bluez left the bus; waiting for it to come back")
        registration?.cancel()
        registration = nil
        registered = false
        for path in connectedCentrals.sorted() { eventSink.yield(.centralDisconnected(devicePath: path)) }
        connectedCentrals = []
        eventSink.yield(.stackLost)
        await application.dropSubscriptions()
    }

    private func central(_ path: String, connected: Bool) {
        guard path.hasPrefix(adapterPath + "/dev_"), !path.dropFirst(adapterPath.count + 1).contains("/") else {
            return
        }
        if connected, connectedCentrals.insert(path).inserted {
            eventSink.yield(.centralConnected(devicePath: path))
        } else if !connected, connectedCentrals.remove(path) != nil {
            eventSink.yield(.centralDisconnected(devicePath: path))
            // Repeating, the advertisement needs no help: the kernel switches it on again at every turn (2 s, links
            // or not; in btmon's capture also 45 ms after the link dropped). Registering again switched it off for
            // 100 ms, and a central that connected just then (the next gateway of a fleet) waited on a silent
            // peripheral for its whole attempt.
            if connectedCentrals.isEmpty && registered && wanted && echo == nil { advertiseAgain() }
        }
    }

    /// Registers the advertisement again once no central is connected. A peripheral is meant to
    /// advertise whenever it is free, but the real stack (kernel 6.1, bluetoothd 5.66, btvirt's
    /// controllers) did not always resume a BlueZ advertisement after the central dropped the link:
    /// the next Connect then timed out. BlueZoo needs none of this, and it does no harm there.
    private func advertiseAgain() {
        readvertising?.cancel()
        readvertising = Task {
            try? await unregisterAdvertisement()
            guard !Task.isCancelled else { return }
            await nameAdapter()
            do {
                try await registerAdvertisement()
            } catch {
                logger.warning("cannot advertise again after the central left: \(error)")
            }
        }
    }

    private var advertisements: [LEAdvertisement] { [advertisement] + (echo.map { [$0] } ?? []) }

    /// Registers every advertisement, or none: a failure withdraws those already registered.
    private func registerAdvertisement() async throws {
        do {
            for registered in advertisements {
                _ = try await connection.call(
                    destination: "org.bluez", path: adapterPath, interface: Self.advertisingManagerInterface,
                    member: "RegisterAdvertisement", arguments: [.objectPath(registered.path), .properties([:])])
            }
        } catch {
            try? await unregisterAdvertisement()
            throw error
        }
    }

    /// Withdraws every advertisement, even when withdrawing one of them fails; throws the first failure.
    private func unregisterAdvertisement() async throws {
        var failure: (any Error)?
        for registered in advertisements.reversed() {
            do {
                _ = try await connection.call(
                    destination: "org.bluez", path: adapterPath, interface: Self.advertisingManagerInterface,
                    member: "UnregisterAdvertisement", arguments: [.objectPath(registered.path)])
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    // MARK: Registration

    private func scheduleRegistration() {
        registration?.cancel()
        registration = Task { [weak self] in
            await self?.registerUntilDone()
        }
    }

    private func registerUntilDone() async {
        var attempt = 0
        while !Task.isCancelled && wanted && !registered {
            attempt += 1
            do {
                try await registerOnce()
                return
            } catch {
                // Expected while BlueZ is starting: no owner yet, or the adapter not exported yet.
                if attempt == 1 || attempt % 20 == 0 {
                    logger.info("registration on \(adapter) not possible yet: \(error)")
                }
                try? await Task.sleep(for: retryInterval)
            }
        }
    }

    private func registerOnce() async throws {
        let reply = try await connection.call(
            destination: "org.bluez", path: adapterPath, interface: DBusStandardInterface.properties, member: "Get",
            arguments: [.string("org.bluez.Adapter1"), .string("Address")], timeout: .seconds(5))
        guard let address = reply.first?.string else {
            throw DBusError(name: "org.bluez.Error.NotReady", message: "\(adapterPath) has no Address")
        }
        let layout = try await chooseLayout()
        // Named before the advertisement starts, never after: on the real stack the new name changes the data of an
        // advertising set already enabled, and once (with btvirt's controllers) the central then heard nothing for
        // two whole 10 s scans.
        await nameAdapter()
        try application.export(layout: layout)
        for exported in advertisements { try exported.export() }
        try Task.checkCancellation()
        _ = try await connection.call(
            destination: "org.bluez", path: adapterPath, interface: Self.gattManagerInterface,
            member: "RegisterApplication",
            arguments: [.objectPath(application.rootPath), .properties([:])])
        do {
            try await registerAdvertisement()
        } catch {
            // Leave nothing half registered; the next attempt starts over.
            _ = try? await connection.call(
                destination: "org.bluez", path: adapterPath, interface: Self.gattManagerInterface,
                member: "UnregisterApplication", arguments: [.objectPath(application.rootPath)])
            throw error
        }
        registered = true
        logger.info("registered on \(adapter) (\(address)), \(layout) handles")
        eventSink.yield(.registered(adapterAddress: address, layout: layout))
        await seedConnectedCentrals()
    }

    /// Gives the adapter the advertised name as its alias: a central that connects reads the GAP Device
    /// Name, which bluetoothd serves from the alias, and a real device answers with its own name there
    /// (without this a connected virtual belt is called "BlueZ 5.66"). A rename shows on the next
    /// registration or advertisement.
    private func nameAdapter() async {
        let name = advertisement.description.localName
        do {
            _ = try await connection.call(
                destination: "org.bluez", path: adapterPath, interface: DBusStandardInterface.properties, member: "Set",
                arguments: [.string("org.bluez.Adapter1"), .string("Alias"), .variant(.string(name))],
                timeout: .seconds(5))
        } catch {
            logger.info("adapter \(adapter) keeps its own name; cannot set its alias to '\(name)': \(error)")
        }
    }

    private func chooseLayout() async throws -> GattHandleLayout {
        switch layoutChoice {
        case .fixed(let layout): return layout
        case .automatic:
            let reply = try await connection.call(
                destination: "org.bluez", path: "/org/bluezoo", interface: DBusStandardInterface.introspectable,
                member: "Introspect", timeout: .seconds(5))
            return (reply.first?.string ?? "").contains("org.bluezoo.") ? .explicit : .assignedByStack
        }
    }

    /// Centrals already connected when we (re)registered, e.g. after a standby that kept a link.
    private func seedConnectedCentrals() async {
        guard
            let reply = try? await connection.call(
                destination: "org.bluez", path: "/", interface: DBusStandardInterface.objectManager,
                member: "GetManagedObjects"),
            let objects = reply.first?.stringKeyed
        else { return }
        for (path, interfaces) in objects {
            if interfaces.stringKeyed?["org.bluez.Device1"]?.stringKeyed?["Connected"]?.bool == true {
                central(path, connected: true)
            }
        }
    }
}
