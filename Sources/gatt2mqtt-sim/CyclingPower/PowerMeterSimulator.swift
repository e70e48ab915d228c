import BlueZ
import DBus
import Peripherals

/// A crank power meter behind `GattApplication`: while 2A63 is subscribed, a measurement every interval with the
/// power, an even pedal balance (the left pedal's 50 %), the crank turning once and the wheel three times per
/// interval (event times in 1/1024 s and 1/2048 s), and the energy accumulated since the subscription in kJ; its
/// control point as CPS 3.5 has it. Every value comes from the encoders written from the specification
/// (`CyclingPowerMeasurement`, `CyclingPowerControlPoint`), not from the declaration the gateway decodes and commands
/// it with.
actor PowerMeterSimulator: SimulatedPeripheral {
    /// The crank lengths the meter takes, in 0.5 mm: 110-220 mm.
    private static let crankLengths: ClosedRange<UInt16> = 220...440

    private let interval: Duration
    private let location: UInt8
    private let link: StandardSimulatorLink
    private var watts: Int16
    private var crankLength: UInt16 = 345
    private var ticks = 0
    private var wheelRevolutions: UInt32 = 0
    private var joules = 0.0
    private var stream = SubscribedStream()

    init(interval: Duration, watts: Int16, location: UInt8, link: StandardSimulatorLink) {
        self.interval = interval
        self.watts = watts
        self.location = location
        self.link = link
    }

    func handle(_ event: PeripheralEvent) { link.report(event) }

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        switch characteristic {
        case CyclingPowerGATT.feature:
            return CyclingPowerFeature.encoded(
                balance: true, wheel: true, crank: true, accumulatedEnergy: true, crankLengthAdjustment: true)
        case CyclingPowerGATT.sensorLocation: return [location]
        default:
            return try StandardSimulatorServices.read(characteristic, battery: 75, model: "POWER-SIM")
        }
    }

    /// The control point, the one writable characteristic. WRITE and INDICATE lines say what happened.
    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        link.reportWrite(value, to: characteristic)
        guard characteristic == CyclingPowerGATT.controlPoint else { throw BlueZPeripheralError.writeNotPermitted }
        let opCode = value.first ?? 0
        let response: [UInt8]
        switch CyclingPowerControlPoint.request(value) {
        case .setCumulativeValue(let revolutions):
            wheelRevolutions = revolutions
            response = CyclingPowerControlPoint.response(to: opCode, .success)
        case .setCrankLength(let halfMillimetres):
            let taken = Self.crankLengths.contains(halfMillimetres)
            if taken { crankLength = halfMillimetres }
            response = CyclingPowerControlPoint.response(to: opCode, taken ? .success : .invalidParameter)
        case .requestCrankLength:
            response = CyclingPowerControlPoint.response(
                to: opCode, .success, value: [UInt8(crankLength & 0xFF), UInt8(crankLength >> 8)])
        case .other: response = CyclingPowerControlPoint.response(to: opCode, .opCodeNotSupported)
        }
        link.indicateAfterWrite(response, on: CyclingPowerGATT.controlPoint)
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        link.writeRefused(value, to: characteristic, error: error)
    }

    func notificationsStarted(for characteristic: String) async {
        link.logger.info("subscribed: \(characteristic)")
        guard characteristic == CyclingPowerGATT.measurement else { return }
        (ticks, joules) = (0, 0)
        stream.start(period: interval, for: self) { [weak self] in await self?.tick() }
    }

    func notificationsStopped(for characteristic: String) async {
        link.logger.info("unsubscribed: \(characteristic)")
        if characteristic == CyclingPowerGATT.measurement { stream.stop() }
    }

    /// `help`; `watts <n>` (the power from the next measurement on); `send` (a measurement now); `raw <hex>` (those
    /// bytes on 2A63, for a value no meter would send).
    func run(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        switch (words.first, words.count) {
        case (nil, _): return
        case ("help", 1): for usage in ["help", "watts <n>", "send", "raw <hex>"] { link.output.line("HELP \(usage)") }
        case ("watts", 2):
            guard let power = Int16(words[1]), (0...3000).contains(power) else {
                return link.output.line("ERROR watts <0-3000>")
            }
            watts = power
        case ("send", 1): tick()
        case ("raw", 2): link.sendRaw(words[1], on: CyclingPowerGATT.measurement)
        default: link.output.line("ERROR unknown command '\(words[0])'; try help")
        }
    }

    private func tick() {
        ticks += 1
        wheelRevolutions &+= 3
        let seconds = interval.inSeconds
        joules += Double(watts) * seconds
        let elapsed = seconds * Double(ticks)
        let measurement = CyclingPowerMeasurement(
            power: watts, balance: (halfPercent: 100, left: true),
            wheel: (revolutions: wheelRevolutions, eventTime: UInt16(truncatingIfNeeded: Int(elapsed * 2048))),
            crank: (
                revolutions: UInt16(truncatingIfNeeded: ticks),
                eventTime: UInt16(truncatingIfNeeded: Int(elapsed * 1024))
            ),
            accumulatedEnergy: UInt16(clamping: Int(joules / 1000)))
        let bytes = measurement.encoded()
        link.notify(bytes, on: CyclingPowerGATT.measurement, saying: "MEASUREMENT")
    }
}
