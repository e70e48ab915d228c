import BlueZ
import DBus
import Logging
import Peripherals

/// Settings of the simulated lab thermometer, from the command line.
struct LabThermometerSettings: Sendable {
    /// In 0.01 °C, before calibration.
    var temperature: Int16
    /// In 0.01 %; nil: its readings leave humidity out.
    var humidity: UInt16?
    /// 0 indoor, 1 outdoor.
    var place: UInt8
    var samples: UInt32
    var interval: Duration
    var batteryPercent: UInt8
}

/// docs/devices.md's lab thermometer behind `GattApplication`, encoding as that page describes the device in words:
/// a reading is a flags byte, the temperature in 0.01 °C (sint16) and, when flag bit 0 is set, the humidity in 0.01 %
/// (uint16), all little-endian; where it hangs is one byte (0 indoor, 1 outdoor); the sample count a uint32; the
/// calibration control point takes op code 01 and an offset in 0.01 °C (sint16) and indicates `80 01 <result>`, 1 for
/// success and 3 for an invalid parameter (another length, another op code, or more than 10 °C either way).
actor LabThermometerSimulator: SimulatedPeripheral {
    static let places = ["indoor", "outdoor"]
    /// The largest calibration offset the thermometer takes, in 0.01 °C.
    static let maximumOffset = 1_000

    private let settings: LabThermometerSettings
    private let link: StandardSimulatorLink
    private var battery: UInt8
    private var samples: UInt32
    private var offset: Int16 = 0
    private var stream = SubscribedStream()

    init(settings: LabThermometerSettings, link: StandardSimulatorLink) {
        self.settings = settings
        self.link = link
        battery = settings.batteryPercent
        samples = settings.samples
    }

    func handle(_ event: PeripheralEvent) {
        link.report(event)
    }

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        switch characteristic {
        case LabThermometerGattLayout.place: return [settings.place]
        case LabThermometerGattLayout.samples: return samples.littleEndianBytes
        default: return try StandardSimulatorServices.read(characteristic, battery: battery, model: "THERMO-SIM")
        }
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        link.reportWrite(value, to: characteristic)
        guard characteristic == LabThermometerGattLayout.calibration else {
            throw BlueZPeripheralError.writeNotPermitted
        }
        var result: UInt8 = 3
        if value.count == 3, value[0] == 0x01, let requested = value.int16(at: 1) {
            if abs(Int(requested)) <= Self.maximumOffset {
                offset = requested
                result = 1
            }
        }
        link.indicateAfterWrite([0x80, 0x01, result], on: LabThermometerGattLayout.calibration)
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        link.writeRefused(value, to: characteristic, error: error)
    }

    func notificationsStarted(for characteristic: String) async {
        link.logger.info("subscribed: \(characteristic)")
        guard characteristic == LabThermometerGattLayout.reading else { return }
        stream.start(period: settings.interval, for: self) { [weak self] in await self?.take() }
    }

    func notificationsStopped(for characteristic: String) async {
        link.logger.info("unsubscribed: \(characteristic)")
        if characteristic == LabThermometerGattLayout.reading { stream.stop() }
    }

    /// `help`; `send` (a reading now); `battery <0-100>` (notified); `raw <hex>` (those bytes on aa01, for a value no
    /// thermometer would send).
    func run(_ line: String) {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        switch (words.first, words.count) {
        case (nil, _): return
        case ("help", 1):
            for usage in ["help", "send", "battery <0-100>", "raw <hex>"] { link.output.line("HELP \(usage)") }
        case ("send", 1): take()
        case ("battery", 2): battery = link.batteryCommand(words[1]) ?? battery
        case ("raw", 2): link.sendRaw(words[1], on: LabThermometerGattLayout.reading)
        default: link.output.line("ERROR unknown command '\(words[0])'; try help")
        }
    }

    /// A sample: counted, and notified to a subscriber.
    private func take() {
        samples &+= 1
        var bytes = [settings.humidity == nil ? 0x00 : 0x01] + (settings.temperature &+ offset).littleEndianBytes
        if let humidity = settings.humidity { bytes += humidity.littleEndianBytes }
        link.notify(bytes, on: LabThermometerGattLayout.reading, saying: "READING")
    }
}
