import ArgumentParser
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] scale …`: a virtual bathroom scale to the Bluetooth SIG's Weight Scale service,
/// served to the gateway's shipped declaration (declarations/weight_scale.yaml) from encoders written from the
/// specification.
struct WeightScaleSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: """
            Simulates a weight scale (181D: measurement 2A9D, indicated; feature 2A9E; battery 180F/2A19; device \
            information 180A).
            """,
        discussion: """
            Standard output: READY scale <address> <name>, INDICATE <hex> for each measurement indicated, HELP <line>, \
            ERROR <reason>. Standard input: help, weigh <grams>, battery <0-100>, raw <hex>. The last weighing is \
            indicated as soon as the gateway subscribes, as a scale hands over what it measured.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name.")
    var name = "SCALE-SIM"

    @Option(help: "The weighing at start, in grams (1-297257).")
    var grams = 72_500

    @Flag(help: "Report in imperial units (0.01 lb, 0.1 in) rather than SI (0.005 kg, 0.001 m).")
    var imperial = false

    @Option(help: "The weighing's time stamp, YYYY-MM-DDTHH:MM:SS (none by default).")
    var at: String?

    @Option(help: "The user the weighing is of (0-255; 255: unknown; none by default).")
    var user: UInt8?

    @Option(
        name: .customLong("height-mm"), help: "The user's height in mm: BMI and height are reported (none by default).")
    var heightMillimetres: Int?

    @Option(help: "Battery level at start, percent (0-100).")
    var battery: UInt8 = 90

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard (1...WeighingUnits.maximumGrams).contains(grams) else {
            throw ValidationError("--grams must be 1-\(WeighingUnits.maximumGrams)")
        }
        if let at, WeighingUnits.dateTime(at) == nil { throw ValidationError("--at must be YYYY-MM-DDTHH:MM:SS") }
        if let heightMillimetres, !(500...2_500).contains(heightMillimetres) {
            throw ValidationError("--height-mm must be 500-2500")
        }
        guard battery <= 100 else { throw ValidationError("--battery must be 0-100") }
    }

    func run() async throws {
        let units = WeighingUnits(
            imperial: imperial, timeStamp: at.flatMap(WeighingUnits.dateTime), user: user,
            heightMillimetres: heightMillimetres)
        try await StandardSimulatorLink.serve(
            family: "scale", services: WeightScaleGattLayout.services, service: WeightScaleGATT.service,
            localName: name, global: global,
            what: "weight scale", detail: ": \(grams) g"
        ) { WeightScaleSimulator(units: units, grams: grams, batteryPercent: battery, link: $0) }
    }
}
