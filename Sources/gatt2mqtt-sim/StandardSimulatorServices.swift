import BlueZ
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
}

extension PeripheralEvent {
    /// What a simulator with no state of its own in the link does with each event: READY on registration (the line
    /// the tests wait for), a log line for the others.
    func report(family: String, advertisement: LEAdvertisement, output: SimulatorOutput, logger: Logger) {
        switch self {
        case .registered(let address, _):
            output.line("READY \(family) \(address) \(advertisement.description.localName)")
        case .stackLost: logger.warning("the Bluetooth stack went away")
        case .centralConnected(let path): logger.info("central connected: \(path)")
        case .centralDisconnected(let path): logger.info("central disconnected: \(path)")
        }
    }
}
