import BlueZ
import DBus
import Logging
import Peripherals

/// Settings of one simulated strap, from the command line.
struct HeartRateSimulatorSettings: Sendable {
    /// The rate and the fields measurements carry, as at start.
    var schedule: HeartRateBeatSchedule
    /// Period of the measurement notifications while 2A37 is subscribed.
    var interval: Duration = .seconds(1)
    /// What 2A38 reads.
    var location: HeartRateBodySensorLocation = .chest
    /// Battery level at start, percent.
    var batteryPercent = 90
    /// `--sequence-bpm`: each measurement of the timer reports the next rate of `HeartRateBpmSequence`.
    var sequenceBeatsPerMinute = false
}

/// The behaviour of a Heart Rate Service sensor behind `GattApplication`: measurements on 2A37 every interval
/// while a central is subscribed, Body Sensor Location and Battery Level reads, and the control point's one
/// command. `HeartRateBeatSchedule` decides what each measurement says; this actor owns the timer, the link
/// events and the test protocol on standard output.
actor HeartRateSimulator: SimulatedPeripheral {
    private var schedule: HeartRateBeatSchedule
    private var battery: HeartRateBatteryLevel
    private let settings: HeartRateSimulatorSettings
    private let application: GattApplication
    private let advertisement: LEAdvertisement
    private let output: SimulatorOutput
    private let logger: Logger
    /// The measurement notifications, while 2A37 is subscribed.
    private var timer: Task<Void, Never>?
    /// With `--sequence-bpm`, the rates the timer's measurements report.
    private var sequence = HeartRateBpmSequence()

    init(
        settings: HeartRateSimulatorSettings, application: GattApplication, advertisement: LEAdvertisement,
        output: SimulatorOutput, logger: Logger
    ) {
        self.settings = settings
        self.schedule = settings.schedule
        self.battery = HeartRateBatteryLevel(clampingPercent: settings.batteryPercent)
        self.application = application
        self.advertisement = advertisement
        self.output = output
        self.logger = logger
    }

    // MARK: Registration events

    /// READY after every registration. A strap serves whoever connects: it neither bonds nor limits centrals.
    func handle(_ event: PeripheralEvent) {
        switch event {
        case .registered(let address, _):
            output.ready("hr", address: address, advertisement: advertisement)
        case .stackLost:
            // The application drops the subscriptions too, which stops the timer.
            logger.warning("the Bluetooth stack went away; measurements resume when a central subscribes again")
        case .centralConnected(let path):
            logger.info("central connected: \(path)")
        case .centralDisconnected(let path):
            logger.info("central disconnected: \(path)")
        }
    }

    // MARK: GattApplicationDelegate

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        switch characteristic {
        case HeartRateGATT.Characteristic.bodySensorLocation: return settings.location.encoded()
        case HeartRateGATT.Characteristic.batteryLevel: return battery.encoded()
        // 2A37 only notifies; the application refuses reads of it before they get here.
        default: throw BlueZPeripheralError.readNotPermitted
        }
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        output.line("WRITE \(characteristic) \(Self.hex(value))")
        // 2A39 is the one writable characteristic; the application refuses writes to the others (`writeRefused`).
        guard characteristic == HeartRateGATT.Characteristic.controlPoint else {
            throw BlueZPeripheralError.writeNotPermitted
        }
        do {
            switch try HeartRateControlPointWrite.command(from: value) {
            case .resetEnergyExpended:
                schedule.resetEnergyExpended()
                logger.info("control point: energy expended reset to 0 kJ")
            }
        } catch {
            output.line("REJECT \(characteristic) \(Self.hex(value)) \(error.bluezErrorName) \(error.reason)")
            throw DBusError(name: error.bluezErrorName, message: error.reason.bluezErrorMessage)
        }
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        output.line("WRITE \(characteristic) \(Self.hex(value))")
        output.line("REJECT \(characteristic) \(Self.hex(value)) \(error.name) \(error.message)")
    }

    func notificationsStarted(for characteristic: String) async {
        logger.info("subscribed: \(characteristic)")
        if characteristic == HeartRateGATT.Characteristic.measurement { startTimer() }
    }

    func notificationsStopped(for characteristic: String) async {
        logger.info("unsubscribed: \(characteristic)")
        if characteristic == HeartRateGATT.Characteristic.measurement { stopTimer() }
    }

    // MARK: Console

    /// Runs one line of standard input.
    func run(_ line: String) {
        let command: HeartRateConsoleCommand?
        do {
            command = try HeartRateConsoleCommand.parse(line)
        } catch {
            output.line("ERROR \(error.reason)")
            return
        }
        switch command {
        case nil: return
        case .help:
            for usage in HeartRateConsoleCommand.usage { output.line("HELP \(usage)") }
        case .beatsPerMinute(let rate):
            schedule.beatsPerMinute = rate
            logger.info("heart rate \(rate) bpm")
        case .contact(let touching):
            guard schedule.setSkinContact(touching) else {
                output.line("ERROR contact is not supported (started with --no-contact)")
                return
            }
            logger.info("skin contact \(touching ? "on" : "off")")
        case .battery(let percent):
            battery = HeartRateBatteryLevel(clampingPercent: percent)
            let notified = application.notify(HeartRateGATT.Characteristic.batteryLevel, value: battery.encoded())
            logger.info("battery \(battery.percent) %\(notified ? " (notified)" : "")")
        case .energy(let kilojoules):
            guard schedule.reportsEnergy else {
                output.line("ERROR energy expended is not reported (started with --no-energy)")
                return
            }
            schedule.setEnergyExpended(kilojoules: kilojoules)
            logger.info("energy expended \(schedule.energyExpendedKilojoules) kJ")
        case .rrIntervals(let intervals):
            sendOnDemand(schedule.measurement(rrIntervals: intervals))
        case .beat:
            sendOnDemand(schedule.measurement())
        }
    }

    // MARK: Measurements

    /// Notifies a measurement every `settings.interval`, by deadline, from one interval after the subscription.
    private func startTimer() {
        stopTimer()
        sequence.restart()
        let period = settings.interval
        timer = RepeatingTimer.start(
            period: { [weak self] in self.map { _ in period } }, tick: { [weak self] in await self?.tick() })
    }

    private func stopTimer() {
        timer?.cancel()
        timer = nil
    }

    private func tick() {
        if settings.sequenceBeatsPerMinute { schedule.beatsPerMinute = sequence.beatsPerMinute() }
        send(schedule.measurement())
    }

    /// `beat` and `rr`: says so when nobody is subscribed, so that a test does not wait for a value that never
    /// comes.
    private func sendOnDemand(_ measurement: HeartRateMeasurement) {
        if !send(measurement) { output.line("ERROR not subscribed: measurement not sent") }
    }

    /// Notifies a measurement if 2A37 is subscribed; prints MEASUREMENT and lets the schedule count it if so.
    @discardableResult
    private func send(_ measurement: HeartRateMeasurement) -> Bool {
        let bytes = measurement.encoded()
        guard application.notify(HeartRateGATT.Characteristic.measurement, value: bytes) else { return false }
        schedule.measurementSent()
        output.line("MEASUREMENT \(bytes.hex)")
        return true
    }

    // MARK: Helpers

    /// Lower-case hex, `-` for no bytes (so the line keeps its fields).
    static func hex(_ bytes: [UInt8]) -> String { bytes.isEmpty ? "-" : bytes.hex }
}
