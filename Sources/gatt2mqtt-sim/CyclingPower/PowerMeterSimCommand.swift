import ArgumentParser
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] power …`: a virtual crank power meter to the Bluetooth SIG's Cycling Power
/// service, served to the gateway's shipped declaration (declarations/cycling_power.yaml) from encoders written from
/// the specification.
struct PowerMeterSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power",
        abstract: """
            Simulates a crank power meter (1818: measurement 2A63, feature 2A65, location 2A5D, control point \
            2A66; battery 180F/2A19; device information 180A).
            """,
        discussion: """
            Standard output: READY cycling_power <address> <name>, MEASUREMENT <hex> for each measurement notified, \
            WRITE <uuid> <hex> and INDICATE <uuid> <hex> for the control point, HELP <line>, ERROR <reason>. \
            Standard input: help, watts <n>, send, raw <hex>. The control point sets the wheel revolutions (01) and \
            the crank length (04: 110-220 mm, else 3, invalid parameter), and tells the crank length (05).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name.")
    var name = "POWER-SIM"

    @Option(name: .customLong("interval-ms"), help: "Period of the measurements while 2A63 is subscribed (1-60000).")
    var intervalMilliseconds = 1000

    @Option(help: "The power measured, W (0-3000).")
    var watts: Int16 = 200

    @Option(help: "Sensor Location's value (0-16; 5: left crank).")
    var location: UInt8 = 5

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard (1...60_000).contains(intervalMilliseconds) else {
            throw ValidationError("--interval-ms must be 1-60000")
        }
        guard (0...3000).contains(watts) else { throw ValidationError("--watts must be 0-3000") }
        guard location <= 16 else { throw ValidationError("--location must be 0-16") }
    }

    func run() async throws {
        try await StandardSimulatorLink.serve(
            family: "cycling_power", services: PowerMeterGattLayout.services, service: CyclingPowerGATT.service,
            localName: name, global: global,
            what: "power meter", detail: ": \(watts) W"
        ) {
            PowerMeterSimulator(
                interval: .milliseconds(intervalMilliseconds), watts: watts, location: location, link: $0)
        }
    }
}
