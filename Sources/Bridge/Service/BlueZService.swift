import ServiceLifecycle

/// The BlueZ client: starts once the broker session is up and an earlier run's leftovers are read (so
/// they are corrected before any device is served), registers the pairing agent, and at shutdown, after
/// the devices are disconnected, stops following BlueZ and closes the bus connection.
struct BlueZService: Service {
    let bridge: Bridge

    func run() async {
        let started = await cancelWhenGracefulShutdown { await bridge.startBlueZ() }
        if started { try? await gracefulShutdown() }
        bridge.bluez.stop()
    }
}

extension Bridge {
    /// False when the start-up was cut short by a shutdown.
    func startBlueZ() async -> Bool {
        guard await brokerUp.passed() else { return false }
        await leftoversRead.wait(timeout: .seconds(3))
        guard !Task.isCancelled else { return false }
        await bluez.start()
        await bluez.registerPairingAgent()
        bluezUp.open()
        return true
    }
}
