import ArgumentParser
import BlueZ
import DBus
import Logging
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] cpr …`: a virtual Credo CPR-Band. Several may run at once, one per
/// adapter, told apart by `--name` (e.g. CPR-01 … CPR-06).
struct CPRBandSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cpr",
        abstract: "Simulates a Credo CPR-Band (service FFF0: depth FFF1, angle FFF2, battery FFF3, command FFF4).",
        discussion: """
            Extra standard-output lines: DEPTH <mm> for each peak sent to a subscribed central (not for \
            --sequence-peaks), CALL, \
            RANGE <min> <max>, NAME <name>. Standard input: compress <mm>, angle <degrees|auto>, \
            battery <raw|0xNN|percent%>.
            """)

    /// Where the band's objects live on the bus; outside /org/bluez, as BlueZ requires of applications.

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name; must start with CPR- (printable ASCII, at most 18 characters).")
    var name = CPRBandState.factoryName

    @Option(help: "Compressions per minute while practicing or evaluating (0: only 'compress' on standard input).")
    var rate: Double = 110

    @Option(
        name: .customLong("depth-mm"),
        help: "Peak depth in mm with ±3 mm variation (55), or a range to draw from (45-65).")
    var depth = CPRBandDepthSpec(argument: "55")!

    @Option(name: .customLong("angle-period-ms"), help: "Angle notification period in ms while streaming.")
    var anglePeriodMs: Int = 100

    @Option(
        name: .customLong("battery-raw"),
        help: "The byte FFF3 reads: 0-255 or 0xNN (default 0xBE, 3.80 V, 50 % in the Bus mapping).")
    var batteryRaw: CPRBandBatterySpec?

    @Option(
        name: .customLong("battery-percent"),
        help: "FFF3 as a percentage in the Bus mapping instead (100 reads 0xFF).")
    var batteryPercent: Double?

    @Flag(
        name: .customLong("any-mode"),
        help: "Accept call, range, name, reset and power-off in any mode (default: ignored outside ready).")
    var anyMode = false

    @Option(help: "Seed of the depth and angle variation (default: derived from the name).")
    var seed: UInt64?

    @Flag(
        name: .customLong("sequence-peaks"),
        help: """
            For the benchmark: while a central is subscribed to FFF1, in any mode, notify a peak at \
            --peaks-per-second instead of compressions (no DEPTH lines). The n-th peak since the subscription \
            is the byte b = ((n-1) mod 255) + 1 (01, 02, … ff, then 01 again: wraps every 255 peaks), and the \
            bridge publishes b/10 with one decimal on cpr/<id>/peak: 0.1, 0.2, … 25.5, 0.1, …
            """)
    var sequencePeaks = false

    @Option(
        name: .customLong("peaks-per-second"),
        help: "Rate of --sequence-peaks, 1-1000 (default \(Self.defaultPeaksPerSecond)), scheduled by deadline.")
    var peaksPerSecond: Int?

    static let defaultPeaksPerSecond = 100

    func validate() throws {
        guard name.utf8.count <= CPRBandName.paddedLength else {
            throw ValidationError("--name must be at most \(CPRBandName.paddedLength) characters")
        }
        do {
            _ = try CPRBandName(name)
        } catch {
            throw ValidationError("--name \(error.message)")
        }
        guard name.hasPrefix("CPR-") else { throw ValidationError("--name must start with CPR-") }
        guard rate.isFinite, (0...600).contains(rate) else {
            throw ValidationError("--rate must be between 0 and 600 compressions per minute")
        }
        guard anglePeriodMs >= 20 else { throw ValidationError("--angle-period-ms must be at least 20") }
        if let peaksPerSecond {
            guard sequencePeaks else { throw ValidationError("--peaks-per-second needs --sequence-peaks") }
            guard (1...1000).contains(peaksPerSecond) else {
                throw ValidationError("--peaks-per-second must be 1-1000")
            }
        }
        if let batteryPercent {
            guard batteryRaw == nil else { throw ValidationError("give --battery-raw or --battery-percent, not both") }
            guard (0...100).contains(batteryPercent) else { throw ValidationError("--battery-percent must be 0-100") }
        }
    }

    func run() async throws {
        global.bootstrapLogging()
        let logger = Logger(label: "sim.cpr")

        var state = CPRBandState(name: name, enforcesReadyOnlyRule: !anyMode)
        if let batteryRaw { state.batteryRaw = batteryRaw.raw }
        if let batteryPercent { state.batteryRaw = CPRBandBatterySpec.raw(forPercent: batteryPercent) }
        var settings = CPRBandSimulatorSettings()
        settings.compressionsPerMinute = rate
        settings.depth = depth
        settings.anglePeriod = .milliseconds(anglePeriodMs)
        settings.seed = seed ?? CPRBandMotion.seed(for: name)
        if sequencePeaks { settings.sequencePeaksPerSecond = peaksPerSecond ?? Self.defaultPeaksPerSecond }

        let runner = try PeripheralRunner(
            global: global, family: "cpr", services: CPRBandGattLayout.services, localName: name,
            serviceUUIDs: [CPRBandGATT.service])
        let band = CPRBandSimulator(
            state: state, settings: settings, application: runner.application, advertisement: runner.advertisement,
            registrar: runner.registrar, output: SimulatorOutput(), logger: logger)
        logger.info(
            "cpr band '\(name)' on \(global.adapter): \(rate) compressions/min, depth \(depth) mm, battery 0x\([state.batteryRaw].hex)"
        )
        try await runner.run(band, logger: logger)
    }
}
