import ArgumentParser
import BlueZ
import DBus
import Logging
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] belt …`: a virtual feelSpace naviBelt.
struct BeltCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "belt", abstract: "Simulates a feelSpace naviBelt (services FE51/FE52/FE53).")

    /// Where the belt's objects live on the bus; outside /org/bluez, as BlueZ requires of applications.

    @OptionGroup var global: GlobalOptions

    @Option(help: "Firmware version reported on FE01.")
    var firmware: UInt16 = 52

    @Option(help: "Advertised name (clients match the naviGuertel prefix).")
    var name = "naviGuertel-SIM"

    @Option(name: .customLong("orientation-period-ms"), help: "Orientation notification period in ms (default 500).")
    var orientationPeriodMs: UInt16?

    @Option(
        name: .customLong("minimum-orientation-period-ms"),
        help: """
            Shortest orientation period accepted, from --orientation-period-ms or a central's parameter-0x0F \
            write (1-20; default 20, pybelt's minimum). The bridge never asks for less than 20 ms.
            """)
    var minimumOrientationPeriodMs = BeltOrientationPeriodFloor.wireMinimumMilliseconds

    @Flag(
        name: .customLong("sequence-heading"),
        help: """
            FE0C values count instead of turning (for the benchmark): the n-th orientation notification since \
            the central subscribed has belt and box heading (n-1) mod 360, so belt/<id>/heading publishes \
            0, 1, … 359, 0, … (wraps every 360 values). Rate: the orientation period.
            """)
    var sequenceHeading = false

    @Option(name: .customLong("keepalive-seconds"), help: "Keep-alive notification period in seconds.")
    var keepAliveSeconds: Double = 2

    @Option(help: "Scripted presses after the first subscription, e.g. 3:compass:short,6:home:long.")
    var buttons: ButtonScript?

    func validate() throws {
        guard keepAliveSeconds > 0 else { throw ValidationError("--keepalive-seconds must be positive") }
        let wireMinimum = BeltOrientationPeriodFloor.wireMinimumMilliseconds
        guard (1...wireMinimum).contains(minimumOrientationPeriodMs) else {
            throw ValidationError("--minimum-orientation-period-ms must be 1 to \(wireMinimum)")
        }
        if let orientationPeriodMs, orientationPeriodMs < minimumOrientationPeriodMs {
            throw ValidationError(
                "--orientation-period-ms must be at least \(minimumOrientationPeriodMs) (belt.md §5; --minimum-orientation-period-ms lowers the floor)"
            )
        }
    }

    func run() async throws {
        global.bootstrapLogging()
        let logger = Logger(label: "sim.belt")

        var state = BeltState(name: name, firmware: BeltFirmwareInfo(version: firmware))
        if let orientationPeriodMs { state.orientationPeriodMs = orientationPeriodMs }
        var settings = BeltSimulatorSettings()
        settings.keepAlivePeriod = .milliseconds(Int(keepAliveSeconds * 1000))
        settings.buttons = buttons?.presses ?? []
        settings.sequenceHeading = sequenceHeading
        settings.orientationPeriodFloor.milliseconds = minimumOrientationPeriodMs

        let runner = try PeripheralRunner(
            global: global, family: "belt", services: BeltGattLayout.services, localName: name,
            serviceUUIDs: BeltAdvertisement.serviceUUIDs)
        let belt = BeltSimulator(
            state: state, settings: settings, application: runner.application, advertisement: runner.advertisement,
            registrar: runner.registrar, output: SimulatorOutput(), logger: logger)
        logger.info("belt '\(name)' firmware \(firmware) on \(global.adapter)")
        try await runner.run(belt, logger: logger)
    }
}
