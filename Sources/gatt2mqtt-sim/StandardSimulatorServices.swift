import BlueZ
import DBus
import Logging
import Peripherals

/// The Battery (180F, Battery Level 2A19: read, notify) and Device Information (180A, Manufacturer Name 2A29 and
/// Model Number 2A24: read) services every standard-profile simulator offers beside its own, as `GattTable` takes them.
enum StandardSimulatorServices {
    static let battery = BluetoothUUID.expand(0x180F)
    static let batteryLevel = BluetoothUUID.expand(0x2A19)
    static let deviceInformation = BluetoothUUID.expand(0x180A)
    static let manufacturerName = BluetoothUUID.expand(0x2A29)
    static let modelNumber = BluetoothUUID.expand(0x2A24)

    static var tables: [GattTable.Entry] {
        [
            (battery, [(batteryLevel, [.read, .notify])]),
            (deviceInformation, [(manufacturerName, .read), (modelNumber, .read)]),
        ]
    }

    /// What a read of one of these services' characteristics answers (the manufacturer is always gatt2mqtt); a
    /// characteristic of neither, which the simulator did not answer itself, may not be read.
    static func read(_ characteristic: String, battery: UInt8, model: String) throws -> [UInt8] {
        switch characteristic {
        case batteryLevel: [battery]
        case manufacturerName: Array("gatt2mqtt".utf8)
        case modelNumber: Array(model.utf8)
        default: throw BlueZPeripheralError.readNotPermitted
        }
    }
}

/// What a standard-profile simulator is served through, whatever its profile: its GATT application and
/// advertisement (the runner's), the tests' line protocol on standard output, and its log.
struct StandardSimulatorLink: Sendable {
    let family: String
    let application: GattApplication
    let advertisement: LEAdvertisement
    let output = SimulatorOutput()
    let logger: Logger

    init(family: String, runner: PeripheralRunner) {
        self.family = family
        application = runner.application
        advertisement = runner.advertisement
        logger = Logger(label: "sim.\(family)")
    }

    /// Serves a standard-profile simulator until the process ends: its GATT application and advertisement registered
    /// on `global.adapter` under `family`, the device `make` builds on their link, and a log line saying what it is
    /// (`what 'name' on hciN`, then `detail`).
    static func serve<Device: SimulatedPeripheral>(
        family: String, services: [GattServiceDescription], service: String, localName: String,
        global: GlobalOptions, what: String, detail: String = "", _ make: (StandardSimulatorLink) -> Device
    ) async throws {
        global.bootstrapLogging()
        let runner = try PeripheralRunner(
            global: global, family: family, services: services, localName: localName, serviceUUIDs: [service])
        let link = StandardSimulatorLink(family: family, runner: runner)
        let device = make(link)
        link.logger.info("\(what) '\(localName)' on \(global.adapter)\(detail)")
        try await runner.run(device, logger: link.logger)
    }

    /// A control point's answer, indicated once the write that asked for it has had its own answer (as a device
    /// indicates once it has acted); an INDICATE line says it went out.
    func indicateAfterWrite(_ value: [UInt8], on characteristic: String) {
        Task {
            if application.notify(characteristic, value: value) {
                output.line("INDICATE \(characteristic) \(value.hex)")
            }
        }
    }

    /// A write the simulator got: a WRITE line with its bytes (`-` for none).
    func reportWrite(_ value: [UInt8], to characteristic: String) {
        output.line("WRITE \(characteristic) \(Self.shown(value))")
    }

    /// A write BlueZ refused before the simulator saw it: a REJECT line with BlueZ's error.
    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) {
        output.line("REJECT \(characteristic) \(Self.shown(value)) \(error.name) \(error.message)")
    }

    /// A value notified to a subscriber, and a `label <hex>` line when one got it (none is subscribed: no line).
    func notify(_ bytes: [UInt8], on characteristic: String, saying label: String) {
        guard application.notify(characteristic, value: bytes) else { return }
        output.line("\(label) \(bytes.hex)")
    }

    /// `raw <hex>`: those bytes on `characteristic` as they are, for a value no device would send; an ERROR line for
    /// hex that is not, or when nobody is subscribed.
    func sendRaw(_ hex: String, on characteristic: String) {
        guard let bytes = [UInt8](hex: hex) else { return output.line("ERROR raw <hex>") }
        if !application.notify(characteristic, value: bytes) { output.line("ERROR not subscribed") }
    }

    /// `battery <0-100>`: the new level, notified to a subscriber; nil, and an ERROR line, for anything else.
    func batteryCommand(_ argument: String?) -> UInt8? {
        guard let percent = argument.flatMap({ UInt8($0) }), percent <= 100 else {
            output.line("ERROR battery <0-100>")
            return nil
        }
        _ = application.notify(StandardSimulatorServices.batteryLevel, value: [percent])
        return percent
    }

    private static func shown(_ value: [UInt8]) -> String { value.isEmpty ? "-" : value.hex }

    /// READY on registration (the line the tests wait for), a log line for the other events.
    func report(_ event: PeripheralEvent) {
        switch event {
        case .registered(let address, _):
            output.ready(family, address: address, advertisement: advertisement)
        case .stackLost: logger.warning("the Bluetooth stack went away")
        case .centralConnected(let path): logger.info("central connected: \(path)")
        case .centralDisconnected(let path): logger.info("central disconnected: \(path)")
        }
    }
}
