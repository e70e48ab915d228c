import ArgumentParser
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] rsc …`: a virtual foot pod to the Bluetooth SIG's Running Speed and Cadence
/// service, served to the gateway's shipped declaration (declarations/running_speed_cadence.yaml) from encoders
/// written from the specification.
struct FootPodSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rsc",
        abstract: """
            Simulates a running speed and cadence sensor (1814: measurement 2A53, feature 2A54; battery 180F/2A19; \
            device information 180A).
            """,
        discussion: """
            Standard output: READY rsc <address> <name>, MEASUREMENT <hex> for each measurement notified, HELP <line>, \
            ERROR <reason>. Standard input: help, walk, run, send, raw <hex>.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name.")
    var name = "RSC-SIM"

    @Option(name: .customLong("interval-ms"), help: "Period of the measurements while 2A53 is subscribed (1-60000).")
    var intervalMilliseconds = 1000

    @Option(help: "Speed in 1/256 m/s (768: 3 m/s).")
    var speed: UInt16 = 768

    @Option(help: "Cadence, steps a minute.")
    var cadence: UInt8 = 170

    @Option(name: .customLong("stride-cm"), help: "Stride length in cm.")
    var strideCentimetres: UInt16 = 106

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard (1...60_000).contains(intervalMilliseconds) else {
            throw ValidationError("--interval-ms must be 1-60000")
        }
    }

    func run() async throws {
        let pace = RSCMeasurement(speed: speed, cadence: cadence, strideLength: strideCentimetres, running: true)
        try await StandardSimulatorLink.serve(
            family: "rsc", services: FootPodGattLayout.services, service: RSCGATT.service, localName: name,
            global: global,
            what: "foot pod", detail: ": \(speed)/256 m/s"
        ) { FootPodSimulator(interval: .milliseconds(intervalMilliseconds), pace: pace, link: $0) }
    }
}
