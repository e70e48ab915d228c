import ArgumentParser

/// `gatt2mqtt-sim`: a virtual BLE peripheral served through BlueZ's public D-Bus API.
/// One subcommand per peripheral family: `belt`, `a5`, `cpr`, `grip` and `hr` (a Heart Rate Service chest strap), and
/// `csc` (a Cycling Speed and Cadence sensor), `power` (a Cycling Power meter), `rsc` (a Running Speed and Cadence
/// foot pod), `environment` (an Environmental Sensing sensor), `scale` (a Weight Scale) and `trainer` (a Fitness
/// Machine), which the gateway serves by their shipped declarations; and `thermometer`, docs/devices.md's worked example
/// of a device with its maker's own UUIDs, served by the declaration that page writes.
struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt2mqtt-sim",
        abstract: "Simulates a Bluetooth LE peripheral through BlueZ (GattManager1 + LEAdvertisingManager1).",
        discussion: """
            Standard output is a line protocol for tests (READY, WRITE, REJECT, MODE, ERROR); logs go to \
            standard error. Commands for the simulated device are read from standard input.
            """,
        subcommands: [
            BeltCommand.self, Activ5SimCommand.self, CPRBandSimCommand.self, GripSimCommand.self,
            HeartRateSimCommand.self, CSCSimCommand.self, EnvironmentalSimCommand.self, WeightScaleSimCommand.self,
            TrainerSimCommand.self, PowerMeterSimCommand.self, FootPodSimCommand.self, LabThermometerSimCommand.self,
        ])

    /// Declared here so that `--adapter` may precede the subcommand; each subcommand declares the same
    /// group and receives the values.
    @OptionGroup var global: GlobalOptions
}

extension SimulatorCommand {
    /// What `AsyncParsableCommand.main()` does. Spelled out because from main.swift's top-level code
    /// (main actor) `main()` and `run()` resolve to their synchronous overloads, which refuse the
    /// asynchronous subcommands.
    nonisolated static func parseAndRun() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
