import BlueZ
import Peripherals

/// The belt's GATT table for `GattApplication`: services FE51/FE52/FE53 with every characteristic of
/// belt.md §2.2 and the flags of `BeltGATT`.
///
/// Handles follow the belt's own BLE layout as pybelt's 2023 map records it (belt.md §2.2: FE01 at
/// 8/9, FE02 at 10/11/12, …), including its gaps; FE07, absent from that map, takes the free 23/24.
/// Clients that count handles (pybelt: value = declaration + 1, one CCCD per notifying characteristic)
/// then see what a real belt shows them.
enum BeltGattLayout {
    /// Declaration handle of each characteristic.
    static let declarationHandles: [String: UInt16] = [
        BeltGATT.Characteristic.firmwareInfo: 8,
        BeltGATT.Characteristic.keepAlive: 10,
        BeltGATT.Characteristic.vibrationCommand: 13,
        BeltGATT.Characteristic.buttonPress: 15,
        BeltGATT.Characteristic.parameterRequest: 18,
        BeltGATT.Characteristic.parameterNotification: 20,
        BeltGATT.Characteristic.buzzerCommand: 23,
        BeltGATT.Characteristic.batteryStatus: 28,
        BeltGATT.Characteristic.sensorCommand: 32,
        BeltGATT.Characteristic.sensorNotification: 34,
        BeltGATT.Characteristic.orientation: 37,
        BeltGATT.Characteristic.debugInput: 41,
        BeltGATT.Characteristic.debugOutput: 43,
    ]

    /// Service declaration handles: each just before its first characteristic.
    static let serviceHandles: [String: UInt16] = [
        BeltGATT.Service.control: 7, BeltGATT.Service.sensor: 31, BeltGATT.Service.debug: 40,
    ]

    /// The three services, in handle order.
    static var services: [GattServiceDescription] {
        BeltGATT.Service.all.map { service in
            GattServiceDescription(
                uuid: service, handle: serviceHandles[service] ?? 0,
                characteristics: BeltGATT.characteristics.filter { $0.service == service }.map { characteristic in
                    GattCharacteristicDescription(
                        uuid: characteristic.uuid, flags: characteristic.flags.bluezFlags,
                        handle: declarationHandles[characteristic.uuid] ?? 0)
                })
        }
    }
}
