import ArgumentParser
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] csc …`: a virtual Cycling Speed and Cadence sensor to the Bluetooth SIG's CSC
/// service, served to the gateway's shipped declaration (declarations/cycling_speed_cadence.yaml) from encoders
/// written from the specification.
struct CSCSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csc",
        abstract: """
            Simulates a Cycling Speed and Cadence sensor (1816: measurement 2A5B, feature 2A5C, location 2A5D; \
            battery 180F/2A19; device information 180A).
            """,
        discussion: """
            Standard output: READY csc <address> <name>, MEASUREMENT <hex> for each measurement notified, \
            HELP <line>, ERROR <reason>. Standard input: help, battery <0-100>, send, raw <hex>.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name.")
    var name = "CSC-SIM"

    @Option(
        name: .customLong("interval-ms"),
        help: """
            Period of the measurements while 2A5B is subscribed (1-60000). The n-th since the subscription carries n \
            crank revolutions and 2n wheel revolutions, so that a benchmark can tell them apart.
            """)
    var intervalMilliseconds = 1000

    @Flag(name: .customLong("no-crank"), help: "A speed sensor: measurements carry wheel data only.")
    var noCrank = false

    @Option(help: "Sensor Location's value (0-16; 5: left crank).")
    var location: UInt8 = 5

    @Option(help: "Battery level at start, percent (0-100).")
    var battery = 80

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard (1...60_000).contains(intervalMilliseconds) else {
            throw ValidationError("--interval-ms must be 1-60000")
        }
        guard (0...100).contains(battery) else { throw ValidationError("--battery must be 0-100") }
    }

    func run() async throws {
        let settings = CSCSimulatorSettings(
            interval: .milliseconds(intervalMilliseconds), crank: !noCrank, location: location,
            batteryPercent: battery)
        try await StandardSimulatorLink.serve(
            family: "csc", services: CSCGattLayout.services, service: CSCGATT.service, localName: name, global: global,
            what: "speed and cadence sensor", detail: ": every \(intervalMilliseconds) ms"
        ) { CSCSimulator(settings: settings, link: $0) }
    }
}
