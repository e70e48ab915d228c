import BlueZ
import Peripherals

/// The sensor's GATT table: Cycling Speed and Cadence (1816) with CSC Measurement 2A5B (notify), CSC Feature 2A5C
/// and Sensor Location 2A5D (read), SC Control Point 2A55 (write, indicate); Battery (180F) with Battery Level 2A19 (read, notify); Device Information (180A)
/// with Manufacturer Name 2A29 and Model Number 2A24 (read): what a speed and cadence sensor offers.
enum CSCGattLayout {
    static let battery = BluetoothUUID.expand(0x180F)
    static let batteryLevel = BluetoothUUID.expand(0x2A19)
    static let deviceInformation = BluetoothUUID.expand(0x180A)
    static let manufacturerName = BluetoothUUID.expand(0x2A29)
    static let modelNumber = BluetoothUUID.expand(0x2A24)

    static var services: [GattServiceDescription] {
        GattTable.services([
            (
                CSCGATT.service,
                [
                    (CSCGATT.measurement, .notify), (CSCGATT.feature, .read), (CSCGATT.sensorLocation, .read),
                    (SCControlPoint.characteristic, [.write, .indicate]),
                ]
            ),
            (battery, [(batteryLevel, [.read, .notify])]),
            (deviceInformation, [(manufacturerName, .read), (modelNumber, .read)]),
        ])
    }
}
