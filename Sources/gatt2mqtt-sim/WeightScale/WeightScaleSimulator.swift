import BlueZ
import DBus
import Logging
import Peripherals

/// A bathroom scale behind `GattApplication`: its last weighing is indicated on Weight Measurement (2A9D) as soon as
/// the gateway subscribes, and each `weigh` from standard input is a new one, indicated at once; Weight Scale
/// Feature, Battery Level and Device Information are read. Every value comes from the encoders written from the
/// specification (`WeightMeasurement`), not from the declaration the gateway decodes them with. INDICATE lines say
/// what was sent.
actor WeightScaleSimulator: SimulatedPeripheral {
    private let units: WeighingUnits
    private let link: StandardSimulatorLink
    private var grams: Int
    private var battery: UInt8
    private var subscribed = false

    init(
        units: WeighingUnits, grams: Int, batteryPercent: UInt8, link: StandardSimulatorLink
    ) {
        self.units = units
        self.grams = grams
        self.battery = batteryPercent
        self.link = link
    }

    func handle(_ event: PeripheralEvent) {
        link.report(event)
    }

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        switch characteristic {
        case WeightScaleGATT.feature:
            return WeightScaleFeature(
                timeStamp: units.timeStamp != nil, multipleUsers: units.user != nil,
                bmi: units.heightMillimetres != nil
            ).encoded()
        default:
            return try StandardSimulatorServices.read(characteristic, battery: battery, model: "SCALE-SIM")
        }
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        throw BlueZPeripheralError.writeNotPermitted
    }

    func notificationsStarted(for characteristic: String) async {
        link.logger.info("subscribed: \(characteristic)")
        guard characteristic == WeightScaleGATT.measurement else { return }
        subscribed = true
        indicate(units.measurement(grams: grams).encoded())
    }

    func notificationsStopped(for characteristic: String) async {
        link.logger.info("unsubscribed: \(characteristic)")
        if characteristic == WeightScaleGATT.measurement { subscribed = false }
    }

    /// `help`; `weigh <grams>` (a new weighing, indicated); `battery <0-100>` (notified); `raw <hex>` (those bytes
    /// on 2A9D, for a value no scale would send).
    func run(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first else { return }
        let argument = words.count == 2 ? words[1] : nil
        switch command {
        case "help":
            for usage in ["help", "weigh <grams>", "battery <0-100>", "raw <hex>"] { link.output.line("HELP \(usage)") }
        case "weigh":
            guard let weighed = argument.flatMap({ Int($0) }), (1...WeighingUnits.maximumGrams).contains(weighed) else {
                return link.output.line("ERROR weigh <1-\(WeighingUnits.maximumGrams)>")
            }
            grams = weighed
            indicate(units.measurement(grams: weighed).encoded())
        case "battery": battery = link.batteryCommand(argument) ?? battery
        case "raw":
            guard let bytes = argument.flatMap([UInt8].init(hex:)) else { return link.output.line("ERROR raw <hex>") }
            indicate(bytes)
        default: link.output.line("ERROR unknown command '\(command)'; try help")
        }
    }

    /// Sent to a subscriber only: a scale keeps its weighing until someone asks for it.
    private func indicate(_ bytes: [UInt8]) {
        guard subscribed, link.application.notify(WeightScaleGATT.measurement, value: bytes) else {
            return link.output.line("ERROR not subscribed")
        }
        link.output.line("INDICATE \(bytes.hex)")
    }
}
