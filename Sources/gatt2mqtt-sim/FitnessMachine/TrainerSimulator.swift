import BlueZ
import DBus
import Peripherals

/// Settings of one simulated trainer, from the command line.
struct TrainerSettings: Sendable {
    var interval: Duration = .seconds(1)
    /// The power held until a target is set, W.
    var power: Int16 = 150
    /// The highest target power taken; above it the control point answers "invalid parameter".
    var maximumPower: Int16 = 2000
}

/// A smart trainer behind `GattApplication`: while 2AD2 is subscribed, Indoor Bike Data every interval (30 km/h at 90
/// /min, the target power held, the target resistance, the distance and the time ridden since the subscription);
/// its control point as FTMS 4.16 has it: control taken first, then targets, start and stop, each answered by an
/// indication. Every value comes from the encoders written from the specification (`IndoorBikeData`,
/// `FitnessMachineControlPoint`), not from the declaration the gateway decodes and commands it with.
actor TrainerSimulator: SimulatedPeripheral {
    /// 30.00 km/h in 0.01 km/h, and 90 /min in 0.5 /min.
    private static let speed: UInt16 = 3000
    private static let cadence: UInt16 = 180
    /// The highest target resistance taken, in 0.1: 20.0.
    private static let maximumResistance: UInt8 = 200

    private let settings: TrainerSettings
    private let link: StandardSimulatorLink
    private var controlled = false
    private var riding = true
    private var power: Int16
    private var resistanceTenths: UInt8 = 50
    private var ridden: Duration = .zero
    private var stream = SubscribedStream()

    init(settings: TrainerSettings, link: StandardSimulatorLink) {
        self.settings = settings
        self.link = link
        power = settings.power
    }

    func handle(_ event: PeripheralEvent) { link.report(event) }

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        if characteristic == FitnessMachineGATT.feature {
            return FitnessMachineFeature.encoded(
                cadence: true, totalDistance: true, resistanceLevel: true, heartRate: false, elapsedTime: true,
                power: true, resistanceTarget: true, powerTarget: true)
        }
        return try StandardSimulatorServices.read(characteristic, battery: 100, model: "TRAINER-SIM")
    }

    /// The control point, the one writable characteristic. WRITE and INDICATE lines say what happened.
    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        link.reportWrite(value, to: characteristic)
        guard characteristic == FitnessMachineGATT.controlPoint else { throw BlueZPeripheralError.writeNotPermitted }
        let response = FitnessMachineControlPoint.response(
            to: value.first ?? 0, answer(FitnessMachineControlPoint.request(value)))
        link.indicateAfterWrite(response, on: FitnessMachineGATT.controlPoint)
    }

    /// What the machine does with a request: control first (FTMS 4.16.2.1), then whatever it supports.
    private func answer(_ request: FitnessMachineControlPoint.Request) -> FitnessMachineControlPoint.Result {
        switch request {
        case .requestControl:
            controlled = true
            return .success
        case .other: return .opCodeNotSupported
        case _ where !controlled: return .controlNotPermitted
        case .reset:
            (controlled, power, resistanceTenths) = (false, settings.power, 50)
            return .success
        case .setTargetPower(let watts):
            guard (0...settings.maximumPower).contains(watts) else { return .invalidParameter }
            power = watts
            return .success
        case .setTargetResistance(let tenths):
            guard tenths <= Self.maximumResistance else { return .invalidParameter }
            resistanceTenths = tenths
            return .success
        case .startOrResume:
            riding = true
            return .success
        case .stopOrPause(let how):
            guard how == 1 || how == 2 else { return .invalidParameter }
            riding = false
            return .success
        }
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        link.writeRefused(value, to: characteristic, error: error)
    }

    func notificationsStarted(for characteristic: String) async {
        link.logger.info("subscribed: \(characteristic)")
        guard characteristic == FitnessMachineGATT.indoorBikeData else { return }
        ridden = .zero
        stream.start(period: settings.interval, for: self) { [weak self] in await self?.tick() }
    }

    func notificationsStopped(for characteristic: String) async {
        link.logger.info("unsubscribed: \(characteristic)")
        if characteristic == FitnessMachineGATT.indoorBikeData { stream.stop() }
    }

    /// `help`; `send` (indoor bike data now); `raw <hex>` (those bytes on 2AD2, for a value no trainer would send).
    func run(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        switch (words.first, words.count) {
        case (nil, _): return
        case ("help", 1): for usage in ["help", "send", "raw <hex>"] { link.output.line("HELP \(usage)") }
        case ("send", 1): tick()
        case ("raw", 2): link.sendRaw(words[1], on: FitnessMachineGATT.indoorBikeData)
        default: link.output.line("ERROR unknown command '\(words[0])'; try help")
        }
    }

    /// One Indoor Bike Data: the time and distance ridden advance only while riding (started, not stopped).
    private func tick() {
        if riding { ridden += settings.interval }
        let seconds = ridden.inSeconds
        let metres = UInt32(seconds * Double(Self.speed) / 360)
        let data = IndoorBikeData(
            speed: riding ? Self.speed : 0, cadence: riding ? Self.cadence : 0, totalDistance: metres,
            resistanceLevel: Int16(resistanceTenths / 10), power: riding ? power : 0,
            elapsedTime: UInt16(clamping: ridden.components.seconds))
        let bytes = data.encoded()
        link.notify(bytes, on: FitnessMachineGATT.indoorBikeData, saying: "DATA")
    }
}
