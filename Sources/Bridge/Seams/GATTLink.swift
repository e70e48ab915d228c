import BlueZ

/// What a session needs of its device: the seam between a family's session and BlueZ. `DeviceLink` is
/// the real one, over the BlueZ client; a session under test runs on one in memory, as SwiftNIO's
/// `EmbeddedChannel` stands in for a socket.
/// Public to the benchmark only (`@_spi(Bench)`), with `BluetoothCentral`.
@_spi(Bench)
public protocol GATTLink: Actor {
    /// The device as BlueZ reported it when the session started (address, name).
    nonisolated var device: BlueZDevice { get }
    func connect(timeout: Duration) async throws
    func disconnect() async
    /// Forgets what the link learnt of the device (characteristic paths), which may change on the next connect.
    func reset()
    func serviceUUIDs() async -> Set<String>
    func characteristicUUIDs() async -> [String]
    /// The characteristic's notifications; `lane` may take them on the I/O thread (see `NotificationLane`).
    func notifications(of characteristic: String, in service: String?, lane: NotificationLane?) async throws
        -> AsyncStream<[UInt8]>
    func stopNotifications(of characteristic: String, in service: String?) async throws
    func read(_ characteristic: String, in service: String?) async throws -> [UInt8]
    func write(_ bytes: [UInt8], to characteristic: String, in service: String?, type: GattWriteType) async throws
    /// The device as BlueZ sees it now (its last RSSI, whether it is paired); nil once BlueZ forgot it.
    func current() async -> BlueZDevice?
    /// The level bluetoothd's battery plugin keeps (`Battery1`), when it claims the Battery Service.
    func batteryPercentage() async -> UInt8?
    /// Bonds with the device (through the gateway's agent) and trusts it.
    func pairAndTrust() async throws
    /// The first characteristic this connection looked for that BlueZ's copy of the device's services lacked, nil when
    /// none did: after a failed set-up, a sign that the copy is stale (`StaleServicesWatch`).
    func missedCharacteristic() async -> String?
    /// Removes the device from BlueZ (`Adapter1.RemoveDevice`), and with it BlueZ's copy of its services: once
    /// discovery sees the device again, its next connection discovers them afresh.
    func forgetServices() async throws
}

/// The short forms the sessions use.
extension GATTLink {
    func connect() async throws { try await connect(timeout: .seconds(10)) }

    func notifications(of characteristic: String, in service: String? = nil) async throws -> AsyncStream<[UInt8]> {
        try await notifications(of: characteristic, in: service, lane: nil)
    }

    func notifications(of characteristic: String, lane: NotificationLane?) async throws -> AsyncStream<[UInt8]> {
        try await notifications(of: characteristic, in: nil, lane: lane)
    }

    func stopNotifications(of characteristic: String) async throws {
        try await stopNotifications(of: characteristic, in: nil)
    }

    func read(_ characteristic: String) async throws -> [UInt8] { try await read(characteristic, in: nil) }

    func write(_ bytes: [UInt8], to characteristic: String, in service: String? = nil) async throws {
        try await write(bytes, to: characteristic, in: service, type: .request)
    }
}
