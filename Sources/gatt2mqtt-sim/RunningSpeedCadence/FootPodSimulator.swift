import BlueZ
import DBus
import Peripherals

/// A foot pod behind `GattApplication`: while 2A53 is subscribed, a measurement every interval with its speed,
/// cadence and stride, running or walking, and the distance covered since the subscription in 0.1 m. Every value
/// comes from the encoders written from the specification (`RSCMeasurement`), not from the declaration the gateway
/// decodes them with.
actor FootPodSimulator: SimulatedPeripheral {
    private let interval: Duration
    private let link: StandardSimulatorLink
    /// The speed, cadence, stride and gait of every measurement; its distance is counted here.
    private var pace: RSCMeasurement
    private var decimetres = 0.0
    private var stream = SubscribedStream()

    init(interval: Duration, pace: RSCMeasurement, link: StandardSimulatorLink) {
        self.interval = interval
        self.pace = pace
        self.link = link
    }

    func handle(_ event: PeripheralEvent) { link.report(event) }

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        if characteristic == RSCGATT.feature {
            return RSCFeature.encoded(strideLength: true, totalDistance: true, walkingOrRunning: true)
        }
        return try StandardSimulatorServices.read(characteristic, battery: 60, model: "RSC-SIM")
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        throw BlueZPeripheralError.writeNotPermitted
    }

    func notificationsStarted(for characteristic: String) async {
        link.logger.info("subscribed: \(characteristic)")
        guard characteristic == RSCGATT.measurement else { return }
        decimetres = 0
        stream.start(period: interval, for: self) { [weak self] in await self?.tick() }
    }

    func notificationsStopped(for characteristic: String) async {
        link.logger.info("unsubscribed: \(characteristic)")
        if characteristic == RSCGATT.measurement { stream.stop() }
    }

    /// `help`; `walk` and `run` (the gait from the next measurement on); `send` (a measurement now); `raw <hex>`
    /// (those bytes on 2A53, for a value no sensor would send).
    func run(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        switch (words.first, words.count) {
        case (nil, _): return
        case ("help", 1):
            for usage in ["help", "walk", "run", "send", "raw <hex>"] { link.output.line("HELP \(usage)") }
        case ("walk", 1): pace.running = false
        case ("run", 1): pace.running = true
        case ("send", 1): tick()
        case ("raw", 2): link.sendRaw(words[1], on: RSCGATT.measurement)
        default: link.output.line("ERROR unknown command '\(words[0])'; try help")
        }
    }

    private func tick() {
        let seconds = interval.inSeconds
        decimetres += Double(pace.speed) / 256 * seconds * 10
        var measurement = pace
        measurement.totalDistance = UInt32(decimetres.rounded(.down))
        let bytes = measurement.encoded()
        link.notify(bytes, on: RSCGATT.measurement, saying: "MEASUREMENT")
    }
}
