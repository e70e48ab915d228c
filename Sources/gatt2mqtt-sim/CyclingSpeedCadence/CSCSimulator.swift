import BlueZ
import DBus
import Logging
import Peripherals

/// Settings of one simulated speed and cadence sensor, from the command line.
struct CSCSimulatorSettings: Sendable {
    var interval: Duration = .seconds(1)
    var wheel = true
    var crank = true
    /// Sensor Location's value (5: left crank).
    var location: UInt8 = 5
    var batteryPercent = 80
}

/// A Cycling Speed and Cadence sensor behind `GattApplication`: while 2A5B is subscribed, a measurement every
/// interval whose wheel turns twice and crank once, with event times advancing by the interval in 1/1024 s; CSC
/// Feature, Sensor Location, Battery Level and Device Information reads. Every value comes from the encoders written
/// from the specification (`CSCMeasurement`), not from the declaration the gateway decodes them with.
actor CSCSimulator: SimulatedPeripheral {
    private let settings: CSCSimulatorSettings
    private let link: StandardSimulatorLink
    private var battery: UInt8
    private var wheel: (revolutions: UInt32, eventTime: UInt16) = (0, 0)
    private var crank: (revolutions: UInt16, eventTime: UInt16) = (0, 0)
    private var stream = SubscribedStream()

    init(
        settings: CSCSimulatorSettings, link: StandardSimulatorLink
    ) {
        self.settings = settings
        self.link = link
        battery = UInt8(settings.batteryPercent)
    }

    func handle(_ event: PeripheralEvent) {
        link.report(event)
    }

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        switch characteristic {
        case CSCGATT.feature:
            return CSCFeature(wheel: settings.wheel, crank: settings.crank, multipleLocations: false).encoded()
        case CSCGATT.sensorLocation: return [settings.location]
        default:
            return try StandardSimulatorServices.read(characteristic, battery: battery, model: "CSC-SIM")
        }
    }

    /// The SC Control Point, the one writable characteristic: Set Cumulative Value sets the wheel revolutions;
    /// Update Sensor Location is refused as not supported (the sensor has one location, as its feature says); each
    /// answered by an indication. WRITE and INDICATE lines say what happened.
    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        link.reportWrite(value, to: characteristic)
        guard characteristic == SCControlPoint.characteristic else { throw BlueZPeripheralError.writeNotPermitted }
        let opCode = value.first ?? 0
        let result: SCControlPoint.Result
        switch SCControlPoint.request(value) {
        case .setCumulativeValue(let revolutions):
            wheel.revolutions = revolutions
            result = .success
        case .updateSensorLocation, .other:
            result = .opCodeNotSupported
        }
        let response = SCControlPoint.response(to: opCode, result)
        link.indicateAfterWrite(response, on: SCControlPoint.characteristic)
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        link.writeRefused(value, to: characteristic, error: error)
    }

    func notificationsStarted(for characteristic: String) async {
        link.logger.info("subscribed: \(characteristic)")
        guard characteristic == CSCGATT.measurement else { return }
        // Counted from the subscription, as the benchmark matches the n-th value with n crank revolutions.
        (wheel, crank) = ((0, 0), (0, 0))
        stream.start(period: settings.interval, for: self) { [weak self] in await self?.tick() }
    }

    func notificationsStopped(for characteristic: String) async {
        link.logger.info("unsubscribed: \(characteristic)")
        if characteristic == CSCGATT.measurement { stream.stop() }
    }

    /// `help`; `battery <0-100>` (notified); `send` (a measurement now); `raw <hex>` (those bytes on 2A5B, for a
    /// value no sensor would send).
    func run(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        switch (words.first, words.count) {
        case (nil, _): return
        case ("help", 1):
            for usage in ["help", "battery <0-100>", "send", "raw <hex>"] { link.output.line("HELP \(usage)") }
        case ("battery", 2): battery = link.batteryCommand(words[1]) ?? battery
        case ("send", 1): tick()
        case ("raw", 2): link.sendRaw(words[1], on: CSCGATT.measurement)
        default: link.output.line("ERROR unknown command '\(words[0])'; try help")
        }
    }

    private func tick() {
        let ticks = UInt16(
            truncatingIfNeeded: settings.interval.components.seconds * 1024
                + settings.interval.components.attoseconds / 976_562_500_000_000)
        wheel = (wheel.revolutions &+ 2, wheel.eventTime &+ ticks)
        crank = (crank.revolutions &+ 1, crank.eventTime &+ ticks)
        let bytes = CSCMeasurement(wheel: settings.wheel ? wheel : nil, crank: settings.crank ? crank : nil).encoded()
        link.notify(bytes, on: CSCGATT.measurement, saying: "MEASUREMENT")
    }
}
