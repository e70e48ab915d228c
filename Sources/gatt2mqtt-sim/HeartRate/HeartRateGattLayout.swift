import BlueZ
import Peripherals

/// The strap's GATT table for `GattApplication`: Heart Rate (180D) with Measurement 2A37 (notify), Body Sensor
/// Location 2A38 (read) and Control Point 2A39 (write), then Battery (180F) with Battery Level 2A19 (read, notify),
/// as a Polar H10 or a Garmin HRM exposes them (their Device Information and vendor services are left out: the
/// bridge reads neither).
///
/// Handles are numbered as for the other families (`GattTable`).
enum HeartRateGattLayout {
    /// Each service with its characteristics and their properties, in handle order.
    static let table: [GattTable.Entry] = [
        (
            HeartRateGATT.Service.heartRate,
            [
                (HeartRateGATT.Characteristic.measurement, .notify),
                (HeartRateGATT.Characteristic.bodySensorLocation, .read),
                (HeartRateGATT.Characteristic.controlPoint, .write),
            ]
        ),
        (HeartRateGATT.Service.battery, [(HeartRateGATT.Characteristic.batteryLevel, [.read, .notify])]),
    ]

    /// The strap's services.
    static var services: [GattServiceDescription] { GattTable.services(table) }
}
