import Locks

/// The D-Bus floor as a relay: ``DBusFloor`` in the benchmark's own process.
final class DBusFloorRelay: StreamRelay {
    let name = "D-Bus floor"
    let processID: Int32? = nil
    let floor: DBusFloor
    private let connected = Mutex<[String: DBusFloor.Device]>([:])

    init(busAddress: String, acquireNotify: Bool) throws {
        floor = try DBusFloor(address: busAddress, acquireNotify: acquireNotify)
    }

    func start(_ devices: [BenchDevice], periodMilliseconds: Int16) async throws {
        floor.clear()
        connected.withLock { $0 = [:] }
        let found = try await floor.connect(devices.map { ($0.address, $0.central) }) { device in
            // Recorded one by one, so that a failure half-way still disconnects those already connected.
            self.connected.withLock { $0[device.address] = device }
        }
        for device in found { try await floor.startStreaming(device, periodMilliseconds: periodMilliseconds) }
    }

    func receptions(of device: BenchDevice) -> [Reception] {
        guard let found = connected.withLock({ $0[device.address] }) else { return [] }
        return floor.receptions(of: found)
    }

    func command(_ device: BenchDevice, periodMilliseconds: Int16) async throws -> UInt64 {
        guard let found = connected.withLock({ $0[device.address] }) else {
            throw BenchFailure("\(device.address) not connected")
        }
        return try await floor.timedWrite(found, period: periodMilliseconds)
    }

    // Both go to every device at once: past BlueZoo's saturation each call may wait for its timeout,
    // and 50 of them one after another would take many minutes.
    func stopStreams(_ devices: [BenchDevice]) async throws {
        let floor = self.floor
        await forEachConnected { try? await floor.stopStreaming($0) }
    }

    func shutdown(_ devices: [BenchDevice]) async throws {
        let floor = self.floor
        await forEachConnected { try? await floor.disconnect($0) }
    }

    private func forEachConnected(_ body: @escaping @Sendable (DBusFloor.Device) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for device in connected.withLock({ $0.values }) { group.addTask { await body(device) } }
        }
    }

    func close() { floor.close() }
}
