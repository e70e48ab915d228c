import BlueZ
import DBus
import Foundation
import Glibc
import Locks

/// The D-Bus floor: the least a central can do to get the same values from BlueZ, written straight
/// against BlueZ's D-Bus API (Adapter1, Device1, GattCharacteristic1) with no bridge logic at all:
/// connect, write the sample period (the Activ5's), subscribe to the family's stream, and take the time
/// of each value: each PropertiesChanged after StartNotify, or each packet read from the socket of
/// AcquireNotify (on the connection's own thread, as gatt2mqtt reads it). Its writes (`timedWrite`) are
/// the floor of the command path's D-Bus hop. With `deliver`, each value is handed over instead of
/// timed: the floor relay publishes it.
final class DBusFloor: Sendable {
    struct Device: Sendable {
        var address: String
        var central: String
        var path: String
        var stream: String
        var samplePeriod: String?
    }

    /// Takes a value on the thread that read it: the device's key (`AA_BB_…`) and the bytes.
    typealias Deliver = @Sendable (String, [UInt8]) -> Void

    private static let bluez = "org.bluez"
    private let family: BenchFamily
    /// What is done with each value: `deliver`, or timing it into the table.
    private let take: Deliver

    private let connection: DBusConnection
    private let table = ReceptionTable()
    private let listener: Task<Void, Never>
    private let acquireNotify: Bool
    /// Acquired sockets by device address.
    private let sockets = Mutex<[String: Int32]>([:])

    init(address: String, acquireNotify: Bool, family: BenchFamily = .activ5, deliver: Deliver? = nil) throws {
        connection = try DBusConnection(address: address)
        self.acquireNotify = acquireNotify
        self.family = family
        take = Self.taker(family: family, table: table, deliver: deliver)
        let signals = connection.signals(
            matching: DBusMatchRule(
                sender: Self.bluez, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                pathNamespace: "/org/bluez"))
        let take = take
        listener = Task {
            for await signal in signals {
                guard signal.arguments.first?.string == "org.bluez.GattCharacteristic1",
                    let value = signal.arguments.dropFirst().first?.stringKeyed?["Value"]?.unwrapped.bytes
                else { continue }
                take(Self.deviceAddress(containing: signal.path), value)
            }
        }
    }

    /// What is done with a value: handed to `deliver`, or timed into the table by its sequence.
    private static func taker(family: BenchFamily, table: ReceptionTable, deliver: Deliver?) -> Deliver {
        if let deliver { return deliver }
        return { key, value in
            let now = MonotonicClock.nanoseconds()
            if let sequence = family.sequence(sent: value) {
                table.append(Reception(sequence: sequence, nanoseconds: now), to: key)
            }
        }
    }

    func receptions(of device: Device) -> [Reception] {
        receptions(ofAddress: device.address)
    }

    /// `AA_BB_…` (the address as an object path writes it) of a path at or below `/org/bluez/hciN/dev_…`.
    private static func deviceAddress(containing path: String) -> String {
        String(path.split(separator: "/").dropFirst(3).first?.dropFirst("dev_".count) ?? "")
    }

    /// Receptions by device address, on whichever adapter, and whether or not this listener connected
    /// the device: BlueZ's PropertiesChanged signals reach every client whose match rule covers them.
    func receptions(ofAddress address: String) -> [Reception] {
        table.receptions(address.uppercased().replacingOccurrences(of: ":", with: "_"))
    }

    private static func path(of address: String, on central: String) -> String {
        "/org/bluez/\(central)/dev_" + address.replacingOccurrences(of: ":", with: "_")
    }

    func clear() { table.clear() }

    /// Finds the devices (scanning on their central adapters until BlueZ lists them all), connects each
    /// through its central and resolves its characteristics.
    func connect(
        _ targets: [(address: String, central: String)], timeout: Duration = .seconds(60),
        connected: (Device) -> Void = { _ in }
    ) async throws -> [Device] {
        let deadline = ContinuousClock.now + timeout
        let paths = targets.map { Self.path(of: $0.address, on: $0.central) }
        let centrals = Set(targets.map(\.central)).sorted()
        var objects = try await managedObjects()
        if !paths.allSatisfy({ objects[$0] != nil }) {
            for central in centrals {
                _ = try await call("/org/bluez/" + central, "org.bluez.Adapter1", "StartDiscovery")
            }
            while !paths.allSatisfy({ objects[$0] != nil }) {
                guard ContinuousClock.now < deadline else {
                    throw BenchFailure("D-Bus floor: devices not found by scanning")
                }
                try await Task.sleep(for: .milliseconds(200))
                objects = try await managedObjects()
            }
            for central in centrals {
                _ = try? await call("/org/bluez/" + central, "org.bluez.Adapter1", "StopDiscovery")
            }
        }
        var devices: [Device] = []
        for ((address, central), path) in zip(targets, paths) {
            _ = try await call(path, "org.bluez.Device1", "Connect", timeout: .seconds(30))
            while true {
                objects = try await managedObjects()
                let characteristics = objects.filter { $0.key.hasPrefix(path + "/") }.compactMap { key, interfaces in
                    interfaces["org.bluez.GattCharacteristic1"]?["UUID"]?.string.map { ($0, key) }
                }
                let byUUID = Dictionary(characteristics, uniquingKeysWith: { first, _ in first })
                let period = family.periodUUID.flatMap { byUUID[$0] }
                if let stream = byUUID[family.streamUUID], (period != nil) == (family.periodUUID != nil) {
                    let device = Device(
                        address: address, central: central, path: path, stream: stream, samplePeriod: period)
                    devices.append(device)
                    connected(device)
                    break
                }
                guard ContinuousClock.now < deadline else {
                    throw BenchFailure("D-Bus floor: \(address) lacks the \(family.streamName) characteristics")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        return devices
    }

    /// Writes the sample period (an Activ5's) and subscribes to the stream: AcquireNotify when chosen and the
    /// bus can pass the socket, else StartNotify.
    func startStreaming(_ device: Device, periodMilliseconds: Int16) async throws {
        if device.samplePeriod != nil { try await write(device, period: periodMilliseconds) }
        if acquireNotify, connection.canPassFileDescriptors {
            let reply = try await call(
                device.stream, "org.bluez.GattCharacteristic1", "AcquireNotify", [.properties([:])])
            guard let socket = reply.first?.fileDescriptor, socket >= 0 else {
                throw BenchFailure("AcquireNotify gave no socket")
            }
            sockets.withLock { $0[device.address] = socket }
            let take = take
            let key = device.address.uppercased().replacingOccurrences(of: ":", with: "_")
            connection.watch(socket) { _ in
                // A closed socket is noticed by stopStreaming's close.
                _ = SeqPacket.drain(socket) { bytes in take(key, Array(bytes)) }
            }
        } else {
            _ = try await call(device.stream, "org.bluez.GattCharacteristic1", "StartNotify")
        }
    }

    func stopStreaming(_ device: Device) async throws {
        if let socket = sockets.withLock({ $0.removeValue(forKey: device.address) }) {
            connection.unwatch(socket)
            Glibc.close(socket)  // the release
        } else {
            _ = try await call(device.stream, "org.bluez.GattCharacteristic1", "StopNotify")
        }
    }

    /// Makes BlueZ forget a device (`Adapter1.RemoveDevice`), so that another device at its address is met afresh.
    func remove(_ address: String, on central: String) async {
        _ = try? await call(
            "/org/bluez/" + central, "org.bluez.Adapter1", "RemoveDevice",
            [.objectPath(Self.path(of: address, on: central))])
    }

    func disconnect(_ device: Device) async throws {
        _ = try await call(device.path, "org.bluez.Device1", "Disconnect")
    }

    /// One F0FA write with response; returns the moment it was handed to the bus.
    func timedWrite(_ device: Device, period: Int16) async throws -> UInt64 {
        let start = MonotonicClock.nanoseconds()
        try await write(device, period: period)
        return start
    }

    private func write(_ device: Device, period: Int16) async throws {
        guard let samplePeriod = device.samplePeriod else {
            throw BenchFailure("\(device.address) has no sample period to write")
        }
        let bits = UInt16(bitPattern: period)
        _ = try await call(
            samplePeriod, "org.bluez.GattCharacteristic1", "WriteValue",
            [.bytes([UInt8(bits & 0xFF), UInt8(bits >> 8)]), .properties(["type": .string("request")])])
    }

    private func managedObjects() async throws -> [String: [String: [String: DBusValue]]] {
        let reply = try await call("/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
        var objects: [String: [String: [String: DBusValue]]] = [:]
        for entry in reply.first?.dictEntries ?? [] {
            guard let path = entry.key.string else { continue }
            var interfaces: [String: [String: DBusValue]] = [:]
            for interface in entry.value.dictEntries ?? [] {
                if let name = interface.key.string { interfaces[name] = interface.value.stringKeyed ?? [:] }
            }
            objects[path] = interfaces
        }
        return objects
    }

    private func call(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(10)
    ) async throws -> [DBusValue] {
        try await connection.call(
            destination: Self.bluez, path: path, interface: interface, member: member, arguments: arguments,
            timeout: timeout)
    }

    func close() {
        listener.cancel()
        connection.close()
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
