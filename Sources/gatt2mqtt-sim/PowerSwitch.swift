import BlueZ

/// How a simulated device that switches itself off ends (the Activ5 idle in stop mode, the CPR band told to): its
/// last notifications go out, its links drop, application and advertisement are withdrawn, a POWER-OFF line says so,
/// and `offs` yields once, so that the runner ends the process with status 0 (`SimulatedPeripheral.powerOffs`).
struct PowerSwitch: Sendable {
    let offs: AsyncStream<Void>
    private let sink: AsyncStream<Void>.Continuation

    init() { (offs, sink) = AsyncStream<Void>.makeStream() }

    func switchOff(application: GattApplication, registrar: PeripheralRegistrar, output: SimulatorOutput) async {
        await application.flushNotifications()
        await registrar.unregister()
        output.line("POWER-OFF")
        sink.yield()
        sink.finish()
    }
}

extension SimulatorOutput {
    /// `READY <family> <address> <name>`: the line the tests wait for, after every registration.
    func ready(_ family: String, address: String, advertisement: LEAdvertisement) {
        line("READY \(family) \(address) \(advertisement.description.localName)")
    }
}
