import ArgumentParser
import BlueZ
import Logging
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] hr …`: a virtual heart rate sensor to the Bluetooth SIG's Heart Rate Service, a
/// chest strap as a Polar H10 or a Garmin HRM implements it. Every value it serves comes from the encoders in
/// Peripherals/HeartRate, the ones whose decoders the bridge uses.
struct HeartRateSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hr",
        abstract: """
            Simulates a Heart Rate Service chest strap (180D: measurement 2A37, location 2A38, control point 2A39; \
            battery 180F/2A19).
            """,
        discussion: """
            Standard output: READY hr <address> <name>, WRITE <uuid> <hex|->, \
            REJECT <uuid> <hex|-> <error> <reason>, MEASUREMENT <hex> for each measurement notified, HELP <line>, \
            ERROR <reason>. A control point write other than 01 is refused with org.bluez.Error.Failed "0x80" \
            (ATT error 0x80, Control Point Value Not Supported). Standard input: help, bpm <30-250>, \
            contact <on|off>, battery <0-100>, energy <kJ>, rr <ms>,<ms>,..., beat.
            """)

    /// The measurement period's bounds: a central's notification gap at the low end, a strap that still looks alive
    /// at the high end.
    static let acceptedIntervalMilliseconds = 10...60_000
    /// With `--sequence-bpm`, for the benchmark's rates (200 a second and more).
    static let acceptedSequenceIntervalMilliseconds = 1...60_000

    @OptionGroup var global: GlobalOptions

    @Option(help: "Advertised name.")
    var name = "HRM-SIM"

    @Option(help: "Heart rate at start, beats per minute (30-250).")
    var bpm = 72

    @Option(
        name: .customLong("interval-ms"),
        help: """
            Period of the measurement notifications while 2A37 is subscribed, in milliseconds (10-60000; \
            1-60000 with --sequence-bpm).
            """)
    var intervalMilliseconds = 1000

    @Flag(
        name: .customLong("sequence-bpm"),
        help: """
            Measurements the benchmark can tell apart: the n-th since 2A37 was subscribed reports \
            ((n - 1) mod 221) + 30 bpm (30, 31, ... 250, then 30 again), whatever --bpm and 'bpm' say.
            """)
    var sequenceBeatsPerMinute = false

    @Option(
        help: """
            What Body Sensor Location (2A38) reads: other, chest, wrist, finger, hand, ear-lobe, foot, or the byte \
            itself (0-255; 7-255 are reserved values).
            """)
    var location = HeartRateLocationArgument(.chest)

    @Option(help: "Battery level at start, percent (0-100).")
    var battery = 90

    @Flag(
        name: .customLong("no-energy"),
        help: "Measurements carry no energy expended (the control point still accepts 01).")
    var noEnergy = false

    @Flag(
        name: .customLong("no-rr"),
        help: "Measurements from the timer and 'beat' carry no RR interval ('rr' still sends its own).")
    var noRR = false

    @Flag(
        name: .customLong("no-contact"),
        help: "The strap has no contact sensor: every measurement says contact detection is not supported.")
    var noContact = false

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        let rates = HeartRateBeatSchedule.acceptedBeatsPerMinute
        guard rates.contains(bpm) else {
            throw ValidationError("--bpm must be \(rates.lowerBound)-\(rates.upperBound)")
        }
        let intervals =
            sequenceBeatsPerMinute ? Self.acceptedSequenceIntervalMilliseconds : Self.acceptedIntervalMilliseconds
        guard intervals.contains(intervalMilliseconds) else {
            throw ValidationError("--interval-ms must be \(intervals.lowerBound)-\(intervals.upperBound)")
        }
        guard (0...100).contains(battery) else { throw ValidationError("--battery must be 0-100") }
    }

    func run() async throws {
        global.bootstrapLogging()
        let logger = Logger(label: "sim.hr")

        let settings = HeartRateSimulatorSettings(
            schedule: HeartRateBeatSchedule(
                beatsPerMinute: bpm, detectsContact: !noContact, reportsEnergy: !noEnergy, reportsRRIntervals: !noRR),
            interval: .milliseconds(intervalMilliseconds), location: location.location, batteryPercent: battery,
            sequenceBeatsPerMinute: sequenceBeatsPerMinute)

        // The registrar gives the adapter this name as its alias before it registers the advertisement, as for
        // every family, so that the GAP Device Name a central reads after connecting matches the advertisement.
        let runner = try PeripheralRunner(
            global: global, family: "hr", services: HeartRateGattLayout.services, localName: name,
            serviceUUIDs: [HeartRateGATT.Service.heartRate])
        let strap = HeartRateSimulator(
            settings: settings, application: runner.application, advertisement: runner.advertisement,
            output: SimulatorOutput(), logger: logger)
        logger.info(
            "heart rate strap '\(name)' on \(global.adapter): \(bpm) bpm every \(intervalMilliseconds) ms, location \(location.defaultValueDescription), battery \(battery) %"
        )
        try await runner.run(strap, logger: logger)
    }
}
