import ServiceLifecycle

/// This gateway's part in a fleet (`Bridge+Fleet`): heartbeats, claims and the link actions of its arbiter,
/// once BlueZ is up.
struct FleetService: Service {
    let bridge: Bridge
    let fleet: FleetCoordinator

    func run() async {
        await cancelWhenGracefulShutdown {
            guard await bridge.bluezUp.passed() else { return }
            await bridge.runFleet(fleet, bluez: bridge.bluez)
        }
    }
}
