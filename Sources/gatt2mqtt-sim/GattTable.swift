import BlueZ
import Peripherals

/// A simulator's services as a table (each service with its characteristics and their properties, in handle order),
/// numbered as every family's are: services from 0x10 on, leaving room for the GAP and GATT services a real stack
/// puts first, each characteristic with its declaration, its value (declaration + 1) and, if it notifies, its CCCD
/// (declaration + 2; or indicates). Under bluetoothd the stack assigns them.
enum GattTable {
    typealias Entry = (service: String, characteristics: [(uuid: String, flags: GATTCharacteristicFlags)])

    static func services(_ table: [Entry], firstHandle: UInt16 = 0x10) -> [GattServiceDescription] {
        var next = firstHandle
        return table.map { entry in
            let serviceHandle = next
            next += 1
            let characteristics = entry.characteristics.map { characteristic in
                let handle = next
                next += characteristic.flags.contains(.notify) || characteristic.flags.contains(.indicate) ? 3 : 2
                return GattCharacteristicDescription(
                    uuid: characteristic.uuid, flags: characteristic.flags.bluezFlags, handle: handle)
            }
            return GattServiceDescription(uuid: entry.service, handle: serviceHandle, characteristics: characteristics)
        }
    }
}
