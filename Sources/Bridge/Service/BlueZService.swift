import ServiceLifecycle

/// BlueZ: started inside the broker session once an earlier run's leftovers are read (so they are corrected
/// before any device is served), with the pairing agent registered; runs the device policy and the fleet
/// inside it. At shutdown, after they have disconnected every device, it stops following BlueZ and closes the bus.
struct BlueZService: Service {
    let bridge: Bridge

    func run() async throws {
        // Taken before BlueZ starts, so that nothing it reports is missed; `follow` begins with what is cached.
        let events = await bridge.bluez.events()
        let started = await cancelWhenGracefulShutdown { await bridge.startBlueZ() }
        var inside: [any Service] = [DevicePolicyService(bridge: bridge, events: events)]
        if let fleet = bridge.fleet { inside.append(FleetService(bridge: bridge, fleet: fleet)) }
        try await bridge.runInside(started ? inside : []) { bridge.bluez.stop() }
    }
}

extension Bridge {
    /// False when the start-up was cut short by a shutdown.
    func startBlueZ() async -> Bool {
        await leftoversRead.wait(timeout: .seconds(3))
        guard !Task.isCancelled else { return false }
        await bluez.start()
        await bluez.registerPairingAgent()
        return !Task.isCancelled
    }
}
