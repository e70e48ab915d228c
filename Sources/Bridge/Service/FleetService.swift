import ServiceLifecycle

/// This gateway's part in a fleet (`Bridge+Fleet`): heartbeats, claims and the link actions of its arbiter.
/// Runs inside `BlueZService`, so BlueZ is up.
struct FleetService: Service {
    let bridge: Bridge
    let fleet: FleetCoordinator

    func run() async {
        await cancelWhenGracefulShutdown { await bridge.runFleet(fleet, bluez: bridge.bluez) }
    }
}
