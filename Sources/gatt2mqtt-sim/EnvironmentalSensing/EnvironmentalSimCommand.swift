import ArgumentParser
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] environment …`: a virtual Environmental Sensing sensor (temperature, humidity,
/// pressure) to the Bluetooth SIG's ESS, served to the gateway's shipped declaration
/// (declarations/environmental_sensing.yaml) from encoders written from the specification.
struct EnvironmentalSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "environment",
        abstract: """
            Simulates an Environmental Sensing sensor (181A: temperature 2A6E, humidity 2A6F, pressure 2A6D; battery \
            180F/2A19; device information 180A).
            """,
        discussion: """
            Standard output: READY environment <address> <name>, READ <uuid> <hex> for each reading read, HELP <line>, \
            ERROR <reason>. Standard input: help, temperature <0.01 °C>, humidity <0.01 %>, pressure <0.1 Pa>, \
            battery <0-100>.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name.")
    var name = "ENV-SIM"

    @Option(help: "Temperature at start, in 0.01 °C (sint16).")
    var temperature: Int16 = 2154

    @Option(help: "Relative humidity at start, in 0.01 % (0-10000).")
    var humidity: UInt16 = 4665

    @Option(help: "Pressure at start, in 0.1 Pa.")
    var pressure: UInt32 = 1_013_250

    @Option(help: "Battery level at start, percent (0-100).")
    var battery: UInt8 = 70

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard humidity <= 10_000 else { throw ValidationError("--humidity must be 0-10000") }
        guard battery <= 100 else { throw ValidationError("--battery must be 0-100") }
    }

    func run() async throws {
        let readings = EnvironmentalReadings(
            hundredthsOfADegree: temperature, hundredthsOfAPercent: humidity, tenthsOfAPascal: pressure,
            batteryPercent: battery)
        try await StandardSimulatorLink.serve(
            family: "environment", services: EnvironmentalGattLayout.services,
            service: EnvironmentalSensingGATT.service, localName: name, global: global,
            what: "environmental sensor"
        ) { EnvironmentalSimulator(readings: readings, link: $0) }
    }
}
