import BlueZ
import DBus
import Logging
import Peripherals

/// A weather sensor's readings, in the units its characteristics carry (0.01 °C, 0.01 %, 0.1 Pa).
struct EnvironmentalReadings: Sendable {
    var hundredthsOfADegree: Int16 = 2154
    var hundredthsOfAPercent: UInt16 = 4665
    var tenthsOfAPascal: UInt32 = 1_013_250
    var batteryPercent: UInt8 = 70
}

/// An Environmental Sensing sensor behind `GattApplication`: Temperature, Humidity and Pressure as the gateway reads
/// them (at connect and then every minute, by the shipped declaration), each encoded by `EnvironmentalSensingGATT`
/// from the specification; a reading changed from standard input is notified to a subscriber too. READ lines say
/// what was read.
actor EnvironmentalSimulator: SimulatedPeripheral {
    private let link: StandardSimulatorLink
    private var readings: EnvironmentalReadings

    init(
        readings: EnvironmentalReadings, link: StandardSimulatorLink
    ) {
        self.readings = readings
        self.link = link
    }

    func handle(_ event: PeripheralEvent) {
        link.report(event)
    }

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        let value: [UInt8]
        switch characteristic {
        case EnvironmentalSensingGATT.temperature:
            value = EnvironmentalSensingGATT.temperature(hundredthsOfADegree: readings.hundredthsOfADegree)
        case EnvironmentalSensingGATT.humidity:
            value = EnvironmentalSensingGATT.humidity(hundredthsOfAPercent: readings.hundredthsOfAPercent)
        case EnvironmentalSensingGATT.pressure:
            value = EnvironmentalSensingGATT.pressure(tenthsOfAPascal: readings.tenthsOfAPascal)
        default:
            return try StandardSimulatorServices.read(
                characteristic, battery: readings.batteryPercent, model: "ENV-SIM")
        }
        link.output.line("READ \(characteristic) \(value.hex)")
        return value
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        throw BlueZPeripheralError.writeNotPermitted
    }

    func notificationsStarted(for characteristic: String) async { link.logger.info("subscribed: \(characteristic)") }
    func notificationsStopped(for characteristic: String) async { link.logger.info("unsubscribed: \(characteristic)") }

    /// `help`; `temperature <0.01 °C>`, `humidity <0.01 %>`, `pressure <0.1 Pa>` (the raw units: what the next read
    /// says, and notified to a subscriber); `battery <0-100>`.
    func run(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first else { return }
        let argument = words.count == 2 ? words[1] : nil
        switch command {
        case "help":
            for usage in ["help", "temperature <0.01 °C>", "humidity <0.01 %>", "pressure <0.1 Pa>", "battery <0-100>"]
            {
                link.output.line("HELP \(usage)")
            }
        case "temperature":
            guard let raw = argument.flatMap({ Int16($0) }) else {
                return link.output.line("ERROR temperature <sint16>")
            }
            readings.hundredthsOfADegree = raw
            notify(EnvironmentalSensingGATT.temperature, EnvironmentalSensingGATT.temperature(hundredthsOfADegree: raw))
        case "humidity":
            guard let raw = argument.flatMap({ UInt16($0) }) else { return link.output.line("ERROR humidity <uint16>") }
            readings.hundredthsOfAPercent = raw
            notify(EnvironmentalSensingGATT.humidity, EnvironmentalSensingGATT.humidity(hundredthsOfAPercent: raw))
        case "pressure":
            guard let raw = argument.flatMap({ UInt32($0) }) else { return link.output.line("ERROR pressure <uint32>") }
            readings.tenthsOfAPascal = raw
            notify(EnvironmentalSensingGATT.pressure, EnvironmentalSensingGATT.pressure(tenthsOfAPascal: raw))
        case "battery": readings.batteryPercent = link.batteryCommand(argument) ?? readings.batteryPercent
        default: link.output.line("ERROR unknown command '\(command)'; try help")
        }
    }

    private func notify(_ characteristic: String, _ value: [UInt8]) {
        _ = link.application.notify(characteristic, value: value)
    }
}
