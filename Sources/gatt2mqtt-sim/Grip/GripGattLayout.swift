import BlueZ
import Peripherals

/// The grip's GATT table for `GattApplication`, from the profile's `simulatorCharacteristics`: the
/// event service, the battery service and Device Information, in that order, each characteristic in
/// the service the profile puts it in.
///
/// A real grip's handles are unknown (cpr-band-and-grip.md §B.0), so they are numbered as for the
/// Activ5: services from 0x10 on, each characteristic with its declaration, its value (+1) and, if it
/// notifies, the CCCD (+2).
enum GripGattLayout {
    /// Declaration handle of the first service.
    static let firstHandle: UInt16 = 0x10

    /// The services of a profile, in handle order.
    static func services(for profile: GripProfile) -> [GattServiceDescription] {
        let characteristics = profile.simulatorCharacteristics
        var serviceOrder: [String] = []
        for characteristic in characteristics where !serviceOrder.contains(characteristic.service) {
            serviceOrder.append(characteristic.service)
        }
        var next = firstHandle
        return serviceOrder.map { service in
            let serviceHandle = next
            next += 1
            let members = characteristics.filter { $0.service == service }.map { characteristic in
                let handle = next
                next += characteristic.flags.contains(.notify) ? 3 : 2
                return GattCharacteristicDescription(
                    uuid: characteristic.uuid, flags: characteristic.flags.bluezFlags, handle: handle)
            }
            return GattServiceDescription(uuid: service, handle: serviceHandle, characteristics: members)
        }
    }
}
