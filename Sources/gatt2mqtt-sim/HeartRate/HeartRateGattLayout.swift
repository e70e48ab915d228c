import BlueZ
import Peripherals

/// The strap's GATT table for `GattApplication`: Heart Rate (180D) with Measurement 2A37 (notify), Body Sensor
/// Location 2A38 (read) and Control Point 2A39 (write), then Battery (180F) with Battery Level 2A19 (read, notify),
/// as a Polar H10 or a Garmin HRM exposes them (their Device Information and vendor services are left out: the
/// bridge reads neither).
///
/// Handles are numbered as for the other families: services from 0x10 on, leaving room for the GAP and GATT
/// services a real stack puts first, each characteristic with its declaration, its value (declaration + 1) and,
/// if it notifies, the CCCD (declaration + 2). Under bluetoothd the stack assigns them.
enum HeartRateGattLayout {
    /// Declaration handle of the first service.
    static let firstHandle: UInt16 = 0x10

    /// Each service with its characteristics and their properties, in handle order.
    static let table: [(service: String, characteristics: [(uuid: String, flags: GATTCharacteristicFlags)])] = [
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
    static var services: [GattServiceDescription] {
        var next = firstHandle
        return table.map { entry in
            let serviceHandle = next
            next += 1
            let characteristics = entry.characteristics.map { characteristic in
                let handle = next
                next += characteristic.flags.contains(.notify) ? 3 : 2
                return GattCharacteristicDescription(
                    uuid: characteristic.uuid, flags: characteristic.flags.bluezFlags, handle: handle)
            }
            return GattServiceDescription(uuid: entry.service, handle: serviceHandle, characteristics: characteristics)
        }
    }
}
