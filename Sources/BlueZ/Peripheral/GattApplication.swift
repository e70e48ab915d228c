import DBus
import Locks

/// A BlueZ GATT server application: the `GattService1` / `GattCharacteristic1` / `GattDescriptor1`
/// objects of a described set of services, served under `rootPath` with an ObjectManager at the root,
/// as `GattManager1.RegisterApplication` expects them.
///
/// Behaviour is delegated (``GattApplicationDelegate``); the application itself enforces the flags,
/// because BlueZoo forwards every call regardless of them, and it keeps `Notifying` so that
/// ``notify(_:value:)`` sends only to subscribed characteristics. A stack may subscribe with
/// AcquireNotify instead of StartNotify, as to any real peripheral application that serves it; the
/// notifications then go through that socket. UUIDs are assumed unique within the application; they
/// are how the delegate and ``notify(_:value:)`` name characteristics.
public final class GattApplication: Sendable {
    /// `org.bluez.GattService1`.
    public static let serviceInterface = "org.bluez.GattService1"
    /// `org.bluez.GattCharacteristic1`.
    public static let characteristicInterface = "org.bluez.GattCharacteristic1"
    /// `org.bluez.GattDescriptor1`.
    public static let descriptorInterface = "org.bluez.GattDescriptor1"

    /// The bus the objects are served on.
    public let connection: DBusConnection
    /// Root of the application's object tree (the path given to RegisterApplication).
    public let rootPath: String
    /// What is served.
    public let services: [GattServiceDescription]

    private let state: Mutex<State>
    private let pacer: GattNotificationPacer
    private let notifySockets: GattNotifySockets
    private let observer: GattTrafficObserver?
    /// Whether notifications may go through AcquireNotify sockets: the bus can pass them.
    private let servesAcquireNotify: Bool
    /// Characteristic object paths by UUID; fixed at init.
    private let characteristicPaths: [String: String]

    private struct State: Sendable {
        var delegate = WeakDelegate()
        var layout = GattHandleLayout.explicit
        var notifying: Set<String> = []
        var values: [String: [UInt8]] = [:]
        /// Handles the stack wrote back (layout `.assignedByStack`), by object path.
        var assignedHandles: [String: UInt16] = [:]
        var exportedPaths: [String] = []
    }

    private struct WeakDelegate: Sendable {
        weak var value: (any GattApplicationDelegate)?
    }

    /// Describes the application; nothing is exported until ``export(layout:)``.
    /// - Parameters:
    ///   - rootPath: a path outside `/org/bluez`, e.g. `/org/gatt2mqtt/sim/belt`.
    ///   - minimumNotificationInterval: the gap kept between two notifications (see `GattNotificationPacer`).
    ///   - observer: told of every notification sent and every write received.
    public init(
        connection: DBusConnection, rootPath: String, services: [GattServiceDescription],
        minimumNotificationInterval: Duration = .milliseconds(5), observer: GattTrafficObserver? = nil
    ) {
        self.connection = connection
        self.rootPath = rootPath
        self.services = services
        self.state = Mutex(State())
        self.observer = observer
        servesAcquireNotify = connection.canPassFileDescriptors
        var paths: [String: String] = [:]
        for (serviceIndex, service) in services.enumerated() {
            for (index, characteristic) in service.characteristics.enumerated() where paths[characteristic.uuid] == nil
            {
                paths[characteristic.uuid] = Self.characteristicPath(rootPath, serviceIndex, index)
            }
        }
        characteristicPaths = paths
        let uuids = Dictionary(uniqueKeysWithValues: paths.map { ($0.value, $0.key) })
        var sent: (@Sendable (String, [UInt8]) -> Void)?
        if let observer {
            sent = { path, bytes in observer.notificationSent(uuids[path] ?? path, bytes) }
        }
        let sockets = GattNotifySockets(connection: connection)
        notifySockets = sockets
        pacer = GattNotificationPacer(
            minimumInterval: minimumNotificationInterval,
            emit: { path, bytes in
                if let uuid = uuids[path], sockets.send(bytes, for: uuid) { return }
                try? connection.emitPropertiesChanged(
                    path: path, interface: Self.characteristicInterface, changed: ["Value": .bytes(bytes)])
            }, sent: sent)
    }

    /// Sets the object that answers reads and writes; held weakly.
    public func setDelegate(_ delegate: any GattApplicationDelegate) {
        state.withLock { $0.delegate = WeakDelegate(value: delegate) }
    }

    // MARK: Exporting

    /// Exports (or re-exports) every object for `layout`. Call before each RegisterApplication: the
    /// layout decides whether CCCD objects exist, and objects left over from another layout are removed.
    public func export(layout: GattHandleLayout) throws {
        let previous = state.withLock { state -> [String] in
            state.layout = layout
            state.assignedHandles = [:]
            defer { state.exportedPaths = [] }
            return state.exportedPaths
        }
        for path in previous.reversed() { connection.unexport(path: path) }
        try connection.exportObjectManager(at: rootPath)
        var exported: [String] = []
        for (serviceIndex, service) in services.enumerated() {
            let servicePath = "\(rootPath)/service\(serviceIndex)"
            try connection.export(serviceObject(service, at: servicePath))
            exported.append(servicePath)
            for (index, characteristic) in service.characteristics.enumerated() {
                let path = Self.characteristicPath(rootPath, serviceIndex, index)
                try connection.export(characteristicObject(characteristic, at: path, servicePath: servicePath))
                exported.append(path)
                var descriptors = characteristic.descriptors
                if layout == .explicit, characteristic.canNotify,
                    !descriptors.contains(where: { $0.uuid == GattDescriptorDescription.clientConfigurationUUID })
                {
                    // Where bluetoothd would put its own CCCD: right after the value.
                    let handle = characteristic.handle == 0 ? 0 : characteristic.handle + 2
                    descriptors.insert(
                        GattDescriptorDescription(
                            uuid: GattDescriptorDescription.clientConfigurationUUID, flags: ["read", "write"],
                            handle: handle),
                        at: 0)
                }
                for (descriptorIndex, descriptor) in descriptors.enumerated() {
                    let descriptorPath = "\(path)/desc\(descriptorIndex)"
                    try connection.export(
                        descriptorObject(
                            descriptor, at: descriptorPath, characteristic: characteristic, characteristicPath: path))
                    exported.append(descriptorPath)
                }
            }
        }
        state.withLock { $0.exportedPaths = exported }
    }

    /// Removes every object from the bus.
    public func unexport() {
        let paths = state.withLock { state -> [String] in
            defer { state.exportedPaths = [] }
            return state.exportedPaths
        }
        for path in paths.reversed() { connection.unexport(path: path) }
        connection.removeObjectManager(at: rootPath)
    }

    // MARK: Notifications

    /// Whether a central is subscribed to `characteristic`.
    public func isNotifying(_ characteristic: String) -> Bool {
        state.withLock { $0.notifying.contains(characteristic.lowercased()) }
    }

    /// Sends `value` as a notification of `characteristic` if it is subscribed; returns whether it was
    /// queued. The value also becomes the characteristic's cached `Value`.
    @discardableResult
    public func notify(_ characteristic: String, value: [UInt8]) -> Bool {
        let uuid = characteristic.lowercased()
        guard let path = characteristicPaths[uuid] else { return false }
        let subscribed = state.withLock { state -> Bool in
            state.values[uuid] = value
            return state.notifying.contains(uuid)
        }
        if subscribed { pacer.send(value, from: path) }
        return subscribed
    }

    /// Returns once every notification queued so far has been handed to the bus.
    public func flushNotifications() async {
        await pacer.flush()
    }

    /// Ends every subscription without a StopNotify, as when the stack that held them went away.
    public func dropSubscriptions() async {
        let (dropped, delegate) = state.withLock { state -> (Set<String>, (any GattApplicationDelegate)?) in
            defer { state.notifying = [] }
            return (state.notifying, state.delegate.value)
        }
        let released = Set(notifySockets.releaseAll())
        for uuid in dropped.sorted() {
            if let path = characteristicPaths[uuid] {
                var changed: [String: DBusValue] = ["Notifying": .boolean(false)]
                if released.contains(uuid) { changed["NotifyAcquired"] = .boolean(false) }
                try? connection.emitPropertiesChanged(
                    path: path, interface: Self.characteristicInterface, changed: changed)
            }
            await delegate?.notificationsStopped(for: uuid)
        }
    }

    // MARK: Objects

    private static func characteristicPath(_ root: String, _ service: Int, _ index: Int) -> String {
        "\(root)/service\(service)/char\(index)"
    }

    private func handle(_ described: UInt16, at path: String) -> DBusValue {
        state.withLock { state in
            switch state.layout {
            case .explicit: .uint16(described)
            case .assignedByStack: .uint16(state.assignedHandles[path] ?? 0)
            }
        }
    }

    /// The stack writes back the handles it chose (bluetoothd's `write_handle`, BlueZoo too).
    private func handleSetter(at path: String) -> @Sendable (String, DBusValue) throws -> Void {
        { [weak self] name, value in
            guard name == "Handle", let handle = value.uint16 else {
                throw DBusError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: "\(name) is read-only")
            }
            self?.state.withLock { $0.assignedHandles[path] = handle }
        }
    }

    private func serviceObject(_ service: GattServiceDescription, at path: String) -> DBusObject {
        DBusObject(
            path: path,
            interfaces: [
                DBusInterface(
                    name: Self.serviceInterface,
                    properties: { [weak self] in
                        [
                            "UUID": .string(service.uuid), "Primary": .boolean(service.primary),
                            "Handle": self?.handle(service.handle, at: path) ?? .uint16(0),
                            "Includes": .objectPaths([]),
                        ]
                    },
                    setProperty: handleSetter(at: path))
            ])
    }

    private func characteristicObject(
        _ characteristic: GattCharacteristicDescription, at path: String, servicePath: String
    ) -> DBusObject {
        let uuid = characteristic.uuid
        let methods: [String: DBusInterface.Method] = [
            "ReadValue": { [weak self] call in
                guard let self else { throw Self.gone }
                return [.bytes(try await self.read(characteristic, options: GattRequestOptions(call.arguments.first)))]
            },
            "WriteValue": { [weak self] call in
                guard let self else { throw Self.gone }
                guard let value = call.arguments.first?.bytes else {
                    throw BlueZPeripheralError.invalidArguments("expected ay")
                }
                try await self.write(
                    value, to: characteristic, options: GattRequestOptions(call.arguments.dropFirst().first))
                return []
            },
            "StartNotify": { [weak self] call in
                guard let self else { throw Self.gone }
                // No arguments in BlueZ 5.66; options are read should a stack ever pass them.
                try await self.startNotify(characteristic, options: GattRequestOptions(call.arguments.first))
                return []
            },
            "StopNotify": { [weak self] _ in
                guard let self else { throw Self.gone }
                await self.stopNotify(uuid)
                return []
            },
            "AcquireNotify": { [weak self] call in
                guard let self else { throw Self.gone }
                let options = GattRequestOptions(call.arguments.first)
                let socket = try await self.acquireNotify(characteristic, options: options)
                return [.unixFD(socket), .uint16(options.mtu ?? Self.defaultMTU)]
            },
            // bluetoothd calls Confirm only for indications; stock BlueZoo after every notification.
            "Confirm": { _ in [] },
        ]
        return DBusObject(
            path: path,
            interfaces: [
                DBusInterface(
                    name: Self.characteristicInterface, methods: methods,
                    properties: { [weak self] in
                        guard let self else { return [:] }
                        let (notifying, value) = self.state.withLock {
                            ($0.notifying.contains(uuid), $0.values[uuid] ?? [])
                        }
                        var properties: [String: DBusValue] = [
                            "UUID": .string(uuid), "Service": .objectPath(servicePath),
                            "Flags": .strings(characteristic.flags),
                            "Handle": self.handle(characteristic.handle, at: path), "Value": .bytes(value),
                        ]
                        if characteristic.canNotify {
                            properties["Notifying"] = .boolean(notifying)
                            // Its presence tells the stack that AcquireNotify is served: only where the bus can
                            // carry the socket (not over TCP, where the stack would wait for a reply that never comes).
                            if self.servesAcquireNotify {
                                properties["NotifyAcquired"] = .boolean(self.notifySockets.isAcquired(uuid))
                            }
                        }
                        return properties
                    },
                    setProperty: handleSetter(at: path))
            ])
    }

    private func descriptorObject(
        _ descriptor: GattDescriptorDescription, at path: String, characteristic: GattCharacteristicDescription,
        characteristicPath: String
    ) -> DBusObject {
        let isClientConfiguration = descriptor.uuid == GattDescriptorDescription.clientConfigurationUUID
        let methods: [String: DBusInterface.Method] = [
            "ReadValue": { [weak self] call in
                guard let self else { throw Self.gone }
                guard descriptor.flags.contains(where: { $0.hasSuffix("read") }) else {
                    throw BlueZPeripheralError.readNotPermitted
                }
                let value = isClientConfiguration ? self.clientConfiguration(characteristic.uuid) : descriptor.value
                return [.bytes(try Self.slice(value, from: GattRequestOptions(call.arguments.first).offset))]
            },
            "WriteValue": { [weak self] call in
                guard let self else { throw Self.gone }
                guard isClientConfiguration, let value = call.arguments.first?.bytes else {
                    throw BlueZPeripheralError.writeNotPermitted
                }
                // A CCCD write is a subscription change, as bluetoothd turns it into StartNotify/StopNotify.
                guard value.count == 2 else { throw BlueZPeripheralError.invalidValueLength }
                if value[0] & 0x03 != 0 {
                    try await self.startNotify(
                        characteristic, options: GattRequestOptions(call.arguments.dropFirst().first))
                } else {
                    await self.stopNotify(characteristic.uuid)
                }
                return []
            },
        ]
        return DBusObject(
            path: path,
            interfaces: [
                DBusInterface(
                    name: Self.descriptorInterface, methods: methods,
                    properties: { [weak self] in
                        guard let self else { return [:] }
                        return [
                            "UUID": .string(descriptor.uuid), "Characteristic": .objectPath(characteristicPath),
                            "Flags": .strings(descriptor.flags), "Handle": self.handle(descriptor.handle, at: path),
                            "Value": .bytes(
                                isClientConfiguration ? self.clientConfiguration(characteristic.uuid) : descriptor.value
                            ),
                        ]
                    },
                    setProperty: handleSetter(at: path))
            ])
    }

    // MARK: Behaviour

    private static let gone = DBusError(name: "org.bluez.Error.Failed", message: "application stopped")

    private var delegate: (any GattApplicationDelegate)? { state.withLock { $0.delegate.value } }

    private func clientConfiguration(_ uuid: String) -> [UInt8] {
        isNotifying(uuid) ? [0x01, 0x00] : [0x00, 0x00]
    }

    private static func slice(_ value: [UInt8], from offset: UInt16) throws -> [UInt8] {
        guard Int(offset) <= value.count else { throw BlueZPeripheralError.invalidOffset }
        return Array(value[Int(offset)...])
    }

    private func read(_ characteristic: GattCharacteristicDescription, options: GattRequestOptions) async throws
        -> [UInt8]
    {
        guard characteristic.canRead else { throw BlueZPeripheralError.readNotPermitted }
        guard let delegate else { throw Self.gone }
        let value = try await delegate.readValue(of: characteristic.uuid, options: options)
        state.withLock { $0.values[characteristic.uuid] = value }
        return try Self.slice(value, from: options.offset)
    }

    private func write(_ value: [UInt8], to characteristic: GattCharacteristicDescription, options: GattRequestOptions)
        async throws
    {
        observer?.writeReceived(characteristic.uuid, value)
        do {
            try Self.checkWritable(characteristic, type: options.type)
        } catch let error as DBusError {
            await delegate?.writeRefused(value, to: characteristic.uuid, error: error)
            throw error
        }
        guard let delegate else { throw Self.gone }
        try await delegate.writeValue(value, to: characteristic.uuid, options: options)
    }

    private static func checkWritable(_ characteristic: GattCharacteristicDescription, type: String?) throws {
        switch type {
        case "command":
            // As bluetoothd: a write command needs write-without-response.
            guard characteristic.canWriteWithoutResponse else {
                throw BlueZPeripheralError.notSupported("write without response")
            }
        case nil:
            guard characteristic.canWriteWithResponse || characteristic.canWriteWithoutResponse else {
                throw BlueZPeripheralError.writeNotPermitted
            }
        default:
            guard characteristic.canWriteWithResponse else { throw BlueZPeripheralError.writeNotPermitted }
        }
    }

    private func startNotify(_ characteristic: GattCharacteristicDescription, options: GattRequestOptions) async throws
    {
        guard characteristic.canNotify else { throw BlueZPeripheralError.notSupported("notifications") }
        let uuid = characteristic.uuid
        guard !notifySockets.isAcquired(uuid) else { throw BlueZPeripheralError.notPermitted("Notify acquired") }
        try await delegate?.authorizeNotifications(for: uuid, options: options)
        let started = state.withLock { $0.notifying.insert(uuid).inserted }
        // A second StartNotify succeeds without a second session, as in bluetoothd.
        guard started, let path = characteristicPaths[uuid] else { return }
        try? connection.emitPropertiesChanged(
            path: path, interface: Self.characteristicInterface, changed: ["Notifying": .boolean(true)])
        await delegate?.notificationsStarted(for: uuid)
    }

    /// The MTU told with an acquired socket when the stack gave none: the largest an LE link negotiates.
    static let defaultMTU: UInt16 = 517

    /// Notifications through a socket of their own (see ``GattNotifySockets``): the same subscription
    /// as StartNotify, ended when the stack closes its end.
    private func acquireNotify(_ characteristic: GattCharacteristicDescription, options: GattRequestOptions)
        async throws -> Int32
    {
        guard characteristic.canNotify, servesAcquireNotify else {
            throw BlueZPeripheralError.notSupported("acquired notifications")
        }
        let uuid = characteristic.uuid
        guard !notifySockets.isAcquired(uuid) else { throw BlueZPeripheralError.notPermitted("Notify acquired") }
        guard !isNotifying(uuid) else { throw BlueZPeripheralError.inProgress }
        try await delegate?.authorizeNotifications(for: uuid, options: options)
        let socket = try notifySockets.acquire(uuid) { [weak self] in
            Task { await self?.stopNotify(uuid, acquired: true) }
        }
        state.withLock { _ = $0.notifying.insert(uuid) }
        if let path = characteristicPaths[uuid] {
            try? connection.emitPropertiesChanged(
                path: path, interface: Self.characteristicInterface,
                changed: ["Notifying": .boolean(true), "NotifyAcquired": .boolean(true)])
        }
        await delegate?.notificationsStarted(for: uuid)
        return socket
    }

    /// `acquired`: the subscription was a socket, which the stack has closed already.
    private func stopNotify(_ uuid: String, acquired: Bool = false) async {
        let released = notifySockets.release(uuid) || acquired
        let stopped = state.withLock { $0.notifying.remove(uuid) != nil }
        guard stopped, let path = characteristicPaths[uuid] else { return }
        var changed: [String: DBusValue] = ["Notifying": .boolean(false)]
        if released { changed["NotifyAcquired"] = .boolean(false) }
        try? connection.emitPropertiesChanged(path: path, interface: Self.characteristicInterface, changed: changed)
        await delegate?.notificationsStopped(for: uuid)
    }
}
