import ArgumentParser
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] trainer …`: a virtual smart trainer to the Bluetooth SIG's Fitness Machine service,
/// served to the gateway's shipped declaration (declarations/fitness_machine.yaml) from encoders written from the
/// specification.
struct TrainerSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trainer",
        abstract: """
            Simulates a smart trainer (1826: feature 2ACC, indoor bike data 2AD2, control point 2AD9; battery \
            180F/2A19; device information 180A).
            """,
        discussion: """
            Standard output: READY fitness_machine <address> <name>, DATA <hex> for each indoor bike data notified, \
            WRITE <uuid> <hex> and INDICATE <uuid> <hex> for the control point, HELP <line>, ERROR <reason>. \
            Standard input: help, send, raw <hex>. The control point takes control (00), then target resistance \
            (04), target power (05), start (07) and stop or pause (08); without control it answers 5 (control not \
            permitted), a power above --max-power 3 (invalid parameter).
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name.")
    var name = "TRAINER-SIM"

    @Option(
        name: .customLong("interval-ms"), help: "Period of the indoor bike data while 2AD2 is subscribed (1-60000).")
    var intervalMilliseconds = 1000

    @Option(help: "The power the trainer holds until a target power is set, W (0-2000).")
    var power: Int16 = 150

    @Option(name: .customLong("max-power"), help: "The highest target power it takes, W (1-4000).")
    var maximumPower: Int16 = 2000

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        guard (1...60_000).contains(intervalMilliseconds) else {
            throw ValidationError("--interval-ms must be 1-60000")
        }
        guard (0...2000).contains(power) else { throw ValidationError("--power must be 0-2000") }
        guard (1...4000).contains(maximumPower) else { throw ValidationError("--max-power must be 1-4000") }
    }

    func run() async throws {
        let settings = TrainerSettings(
            interval: .milliseconds(intervalMilliseconds), power: power, maximumPower: maximumPower)
        try await StandardSimulatorLink.serve(
            family: "fitness_machine", services: TrainerGattLayout.services, service: FitnessMachineGATT.service,
            localName: name, global: global,
            what: "smart trainer", detail: ": \(power) W"
        ) { TrainerSimulator(settings: settings, link: $0) }
    }
}
