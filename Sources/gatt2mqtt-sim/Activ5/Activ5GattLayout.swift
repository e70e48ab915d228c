import BlueZ
import Peripherals

/// The Activ5's GATT table for `GattApplication`: the services of `Activ5GATT.services(for:)` with their flags.
///
/// A real device's handles are not known (activ5.md §2), so they are numbered here: services from 0x10 on,
/// leaving room for the GAP and GATT services a real stack puts first, each characteristic with its
/// declaration, its value (declaration + 1) and, if it notifies, the CCCD (declaration + 2). Clients that
/// count handles then see the usual spacing under BlueZoo too; under bluetoothd the stack assigns them.
enum Activ5GattLayout {
    /// Declaration handle of the first service.
    static let firstHandle: UInt16 = 0x10

    /// The services of a profile, in handle order.
    static func services(for wireProtocol: Activ5Protocol) -> [GattServiceDescription] {
        var next = firstHandle
        return Activ5GATT.services(for: wireProtocol).map { service in
            let serviceHandle = next
            next += 1
            let characteristics = service.characteristics.map { characteristic in
                let handle = next
                next += characteristic.flags.contains(.notify) ? 3 : 2
                return GattCharacteristicDescription(
                    uuid: characteristic.uuid, flags: characteristic.flags.bluezFlags, handle: handle)
            }
            return GattServiceDescription(uuid: service.uuid, handle: serviceHandle, characteristics: characteristics)
        }
    }
}
