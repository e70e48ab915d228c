import BlueZ
@_spi(Bench) import Bridge
import Peripherals

/// A CPR-Band's link in memory for the fleet-scale benchmark: it connects at once, offers the band's service and
/// its battery (4.16 V), and never notifies. A band's session asks nothing more, so the owner's session comes up
/// as on a real band, and the fleet's link state (up, down) is the session's own.
actor ScaleLink: GATTLink {
    nonisolated let device: BlueZDevice
    private var streams: [String: AsyncStream<[UInt8]>.Continuation] = [:]

    init(device: BlueZDevice) { self.device = device }

    func connect(timeout: Duration) async throws {}

    func disconnect() async {
        for stream in streams.values { stream.finish() }
        streams = [:]
    }

    func reset() {}
    func missedCharacteristic() async -> String? { nil }
    func forgetServices() async throws {}
    func serviceUUIDs() async -> Set<String> { [CPRBandGATT.service] }
    func characteristicUUIDs() async -> [String] { [CPRBandGATT.Characteristic.battery] }

    func notifications(of characteristic: String, in service: String?, lane: NotificationLane?) async throws
        -> AsyncStream<[UInt8]>
    {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        streams[characteristic] = continuation
        return stream
    }

    func stopNotifications(of characteristic: String, in service: String?) async throws {
        streams.removeValue(forKey: characteristic)?.finish()
    }

    func read(_ characteristic: String, in service: String?) async throws -> [UInt8] {
        guard characteristic == CPRBandGATT.Characteristic.battery else { throw Unanswered(characteristic) }
        return [208]
    }

    func write(_ bytes: [UInt8], to characteristic: String, in service: String?, type: GattWriteType) async throws {}
    func current() async -> BlueZDevice? { device }
    func batteryPercentage() async -> UInt8? { nil }
    func pairAndTrust() async throws {}

    /// A read of a characteristic the band does not have.
    struct Unanswered: Error, CustomStringConvertible {
        let characteristic: String
        init(_ characteristic: String) { self.characteristic = characteristic }
        var description: String { "no characteristic \(characteristic)" }
    }
}
