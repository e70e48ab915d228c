import ArgumentParser
import BlueZ
import DBus
import Logging
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] a5 …`: a virtual Activ5 isometric force sensor.
struct Activ5SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "a5",
        abstract: "Simulates an Activ5 force sensor (legacy 5000/5A01/5A02; by default also F0F0, 180F, 180A).")

    /// Where the device's objects live on the bus; outside /org/bluez, as BlueZ requires of applications.

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Export the legacy profile only (service 5000 with 5A01/5A02).")
    var legacy = false

    @Flag(
        name: .customLong("no-initial-message"),
        help: "Never send TC5k when 5A01 is subscribed (a device hosts must still accept).")
    var noInitialMessage = false

    @Option(help: "Advertised name, in the ACTIV5-XX-NNNN shape of real devices.")
    var name = Activ5State.defaultLocalName

    @Option(help: "Scripted squeezes, seconds after force streaming first starts, e.g. 2:squeeze,6:double.")
    var squeezes: Activ5SqueezeScript?

    @Option(
        name: .customLong("power-off-seconds"),
        help: "Seconds in stop mode without a host write before the device switches off.")
    var powerOffSeconds: Double = Activ5Timing.idlePowerOffSeconds

    @Option(
        name: .customLong("minimum-period-ms"),
        help: "Shortest stream period in milliseconds, whatever F0FA asks for (a link's connection interval).")
    var minimumPeriodMilliseconds = 10

    @Flag(help: "F0FE values count 1, 2, 3, … instead of following a hand's force (for the benchmark).")
    var sequenceForce = false

    func validate() throws {
        guard (1...1000).contains(minimumPeriodMilliseconds) else {
            throw ValidationError("--minimum-period-ms must be 1 to 1000")
        }
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard powerOffSeconds > 0, powerOffSeconds.isFinite else {
            throw ValidationError("--power-off-seconds must be positive")
        }
    }

    func run() async throws {
        global.bootstrapLogging()
        let logger = Logger(label: "sim.a5")

        let wireProtocol: Activ5Protocol = legacy ? .legacy : .new
        var state = Activ5State(wireProtocol: wireProtocol, idlePowerOffSeconds: powerOffSeconds)
        state.sendsInitialMessage = !noInitialMessage
        var settings = Activ5SimulatorSettings()
        settings.squeezes = squeezes?.squeezes ?? []
        settings.minimumStreamPeriod = .milliseconds(minimumPeriodMilliseconds)
        settings.sequenceForce = sequenceForce

        let runner = try PeripheralRunner(
            global: global, family: "a5", services: Activ5GattLayout.services(for: wireProtocol), localName: name,
            serviceUUIDs: [Activ5GATT.advertisedServiceUUID])
        let device = Activ5Simulator(
            state: state, settings: settings, application: runner.application, advertisement: runner.advertisement,
            registrar: runner.registrar, output: SimulatorOutput(), logger: logger)
        logger.info("activ5 '\(name)' (\(wireProtocol) profile) on \(global.adapter)")
        try await runner.run(device, logger: logger, started: { await device.start() })
    }
}
