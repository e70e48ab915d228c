import BlueZ

/// One device's GATT access for a session, over BlueZ: characteristics found by UUID (and cached until
/// the link drops), notifications, reads and writes. BlueZ serializes the operations per device.
actor DeviceLink: GATTLink {
    nonisolated let device: BlueZDevice
    let bluez: BlueZClient
    private var paths: [String: String] = [:]
    /// The first characteristic this connection did not find (`missedCharacteristic`).
    private var missed: String?

    init(device: BlueZDevice, bluez: BlueZClient) {
        self.device = device
        self.bluez = bluez
    }

    func connect(timeout: Duration) async throws {
        paths = [:]
        missed = nil
        try await bluez.connect(devicePath: device.path, timeout: timeout)
    }

    func disconnect() async {
        try? await bluez.disconnect(devicePath: device.path)
        paths = [:]
    }

    /// Forgets the characteristic paths (they may change when the device reconnects).
    func reset() { paths = [:] }

    /// The characteristic's object path; `service` narrows the search when the family knows it.
    func path(of characteristic: String, in service: String? = nil) async throws -> String {
        if let path = paths[characteristic] { return path }
        let found: String? =
            if let service {
                await bluez.characteristicPath(device: device.path, service: service, characteristic: characteristic)
            } else { await bluez.characteristicPath(device: device.path, characteristic: characteristic) }
        guard let found else {
            missed = missed ?? characteristic
            throw CommandError(.gattError, "the device has no characteristic \(characteristic)")
        }
        paths[characteristic] = found
        return found
    }

    func serviceUUIDs() async -> Set<String> { await bluez.serviceUUIDs(device: device.path) }

    func characteristicUUIDs() async -> [String] { await bluez.characteristicUUIDs(device: device.path) }

    func notifications(of characteristic: String, in service: String?, lane: NotificationLane?) async throws
        -> AsyncStream<[UInt8]>
    {
        try await bluez.notifications(
            characteristicPath: try await path(of: characteristic, in: service), devicePath: device.path, lane: lane)
    }

    func stopNotifications(of characteristic: String, in service: String?) async throws {
        try await bluez.stopNotifications(
            characteristicPath: try await path(of: characteristic, in: service), devicePath: device.path)
    }

    func read(_ characteristic: String, in service: String?) async throws -> [UInt8] {
        let path = try await path(of: characteristic, in: service)
        do {
            return try await bluez.read(characteristicPath: path, devicePath: device.path)
        } catch {
            throw GATTAccessRefused.typed(error)
        }
    }

    func write(_ bytes: [UInt8], to characteristic: String, in service: String?, type: GattWriteType) async throws {
        let path = try await path(of: characteristic, in: service)
        do {
            try await bluez.write(bytes, characteristicPath: path, devicePath: device.path, type: type)
        } catch {
            throw GATTAccessRefused.typed(error)
        }
    }

    func current() async -> BlueZDevice? { await bluez.device(at: device.path) }

    func missedCharacteristic() -> String? { missed }

    func forgetServices() async throws {
        try await bluez.removeDevice(devicePath: device.path, adapterPath: device.adapterPath)
    }

    func batteryPercentage() async -> UInt8? { await bluez.batteryPercentage(device: device.path) }

    func pairAndTrust() async throws {
        try await bluez.pair(devicePath: device.path)
        try await bluez.setTrusted(devicePath: device.path)
    }
}

/// How long to wait before the next connection attempt: 0.5 s doubling to 30 s, shortened by up to
/// 20 % at random so that a fleet of gateways does not retry in step.
enum ReconnectBackoff {
    static func delay(attempt: Int) -> Duration {
        let base = min(30.0, 0.5 * Double(1 << min(max(attempt, 1) - 1, 10)))
        return .milliseconds(Int(base * Double.random(in: 0.8...1.0) * 1000))
    }
}
