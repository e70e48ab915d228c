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
    private let application: GattApplication
    private let advertisement: LEAdvertisement
    private let output: SimulatorOutput
    private let logger: Logger
    private var readings: EnvironmentalReadings

    init(
        readings: EnvironmentalReadings, application: GattApplication, advertisement: LEAdvertisement,
        output: SimulatorOutput, logger: Logger
    ) {
        self.readings = readings
        self.application = application
        self.advertisement = advertisement
        self.output = output
        self.logger = logger
    }

    func handle(_ event: PeripheralEvent) {
        event.report(family: "environment", advertisement: advertisement, output: output, logger: logger)
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
        case StandardSimulatorServices.batteryLevel: return [readings.batteryPercent]
        case StandardSimulatorServices.manufacturerName: return Array("gatt2mqtt".utf8)
        case StandardSimulatorServices.modelNumber: return Array("ENV-SIM".utf8)
        default: throw BlueZPeripheralError.readNotPermitted
        }
        output.line("READ \(characteristic) \(value.hex)")
        return value
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        throw BlueZPeripheralError.writeNotPermitted
    }

    func notificationsStarted(for characteristic: String) async { logger.info("subscribed: \(characteristic)") }
    func notificationsStopped(for characteristic: String) async { logger.info("unsubscribed: \(characteristic)") }

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
                output.line("HELP \(usage)")
            }
        case "temperature":
            guard let raw = argument.flatMap({ Int16($0) }) else { return output.line("ERROR temperature <sint16>") }
            readings.hundredthsOfADegree = raw
            notify(EnvironmentalSensingGATT.temperature, EnvironmentalSensingGATT.temperature(hundredthsOfADegree: raw))
        case "humidity":
            guard let raw = argument.flatMap({ UInt16($0) }) else { return output.line("ERROR humidity <uint16>") }
            readings.hundredthsOfAPercent = raw
            notify(EnvironmentalSensingGATT.humidity, EnvironmentalSensingGATT.humidity(hundredthsOfAPercent: raw))
        case "pressure":
            guard let raw = argument.flatMap({ UInt32($0) }) else { return output.line("ERROR pressure <uint32>") }
            readings.tenthsOfAPascal = raw
            notify(EnvironmentalSensingGATT.pressure, EnvironmentalSensingGATT.pressure(tenthsOfAPascal: raw))
        case "battery":
            guard let percent = argument.flatMap({ UInt8($0) }), percent <= 100 else {
                return output.line("ERROR battery <0-100>")
            }
            readings.batteryPercent = percent
            notify(StandardSimulatorServices.batteryLevel, [percent])
        default: output.line("ERROR unknown command '\(command)'; try help")
        }
    }

    private func notify(_ characteristic: String, _ value: [UInt8]) {
        _ = application.notify(characteristic, value: value)
    }
}
