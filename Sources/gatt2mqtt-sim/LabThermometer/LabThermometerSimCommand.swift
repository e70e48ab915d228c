import ArgumentParser
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] thermometer …`: the lab thermometer docs/devices.md takes as its worked example of
/// a device with its maker's own UUIDs, so that a test can follow that page word for word.
struct LabThermometerSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thermometer",
        abstract: """
            Simulates docs/devices.md's lab thermometer (service 0000aa00-1234-5678-9abc-def012345678: readings aa01, \
            place aa02, samples aa03, calibration aa04; battery 180F/2A19; device information 180A).
            """,
        discussion: """
            Standard output: READY thermo <address> <name>, READING <hex> for each reading notified, WRITE <uuid> \
            <hex> for each calibration written, INDICATE <uuid> <hex> for its answer, HELP <line>, ERROR <reason>. \
            Standard input: help, send (a reading now, counted), battery <0-100>, raw <hex>.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name (the worked example's declaration recognises THERMO-…).")
    var name = "THERMO-SIM"

    @Option(help: "Temperature, in 0.01 °C (sint16).")
    var temperature: Int16 = 2154

    @Option(help: "Relative humidity, in 0.01 % (0-10000).")
    var humidity: UInt16 = 4665

    @Flag(name: .customLong("no-humidity"), help: "Readings without humidity (flag bit 0 clear).")
    var noHumidity = false

    @Option(help: "Where it hangs: indoor or outdoor.")
    var place = "indoor"

    @Option(help: "Samples taken before start; each reading is one more.")
    var samples: UInt32 = 0

    @Option(
        name: .customLong("interval-ms"),
        help: "Period of the readings while aa01 is subscribed (1-600000); `send` takes one at once.")
    var intervalMilliseconds = 2000

    @Option(help: "Battery level at start, percent (0-100).")
    var battery: UInt8 = 60

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard LabThermometerSimulator.places.contains(place) else {
            throw ValidationError("--place must be indoor or outdoor")
        }
        guard humidity <= 10_000 else { throw ValidationError("--humidity must be 0-10000") }
        guard (1...600_000).contains(intervalMilliseconds) else {
            throw ValidationError("--interval-ms must be 1-600000")
        }
        guard battery <= 100 else { throw ValidationError("--battery must be 0-100") }
    }

    func run() async throws {
        let settings = LabThermometerSettings(
            temperature: temperature, humidity: noHumidity ? nil : humidity,
            place: UInt8(LabThermometerSimulator.places.firstIndex(of: place) ?? 0), samples: samples,
            interval: .milliseconds(intervalMilliseconds), batteryPercent: battery)
        try await StandardSimulatorLink.serve(
            family: "thermo", services: LabThermometerGattLayout.services, service: LabThermometerGattLayout.service,
            localName: name, global: global, what: "lab thermometer", detail: ", \(place)"
        ) { LabThermometerSimulator(settings: settings, link: $0) }
    }
}
