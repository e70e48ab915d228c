import ServiceLifecycle

/// BlueZ: started inside the broker session once an earlier run's leftovers are read (so they are corrected
/// before any device is served), with the pairing agent registered; runs the device policy and the fleet
/// inside it. At shutdown, after they have disconnected every device, it stops following BlueZ and closes the bus.
struct BlueZService: Service {
    let sessions: DeviceSessions
    let adapters: AdapterWatch
    let notifier: SystemdNotifier
    let leftoversRead: OneShotSignal
    let fleet: FleetService?

    func run() async throws {
        let bluez = sessions.context.bluez
        // Taken before BlueZ starts, so that nothing it reports is missed; the policy begins with what is cached.
        let events = await bluez.events()
        let started = await cancelWhenGracefulShutdown { await start() }
        let policy = DevicePolicyService(sessions: sessions, adapters: adapters, notifier: notifier, events: events)
        let inside: [any Service] = [policy] + (fleet.map { [$0] } ?? [])
        try await ServiceNesting.run(started ? inside : []) { bluez.stop() }
    }

    /// False when the start-up was cut short by a shutdown.
    private func start() async -> Bool {
        let bluez = sessions.context.bluez
        await leftoversRead.wait(timeout: .seconds(3))
        guard !Task.isCancelled else { return false }
        await bluez.start()
        await bluez.registerPairingAgent()
        return !Task.isCancelled
    }
}
