import BlueZ
import Peripherals

/// The CPR-Band's GATT table for `GattApplication`: service FFF0 with the four characteristics of
/// `CPRBandGATT.characteristics` and their flags (FFF1/FFF2 notify, FFF3 read, FFF4 write with response).
///
/// A real band's handles are not known (cpr-band-and-grip.md §A.2), so they are numbered as for the Activ5:
/// the service at 0x10, leaving room for the GAP and GATT services a real stack puts first, each
/// characteristic with its declaration, its value (declaration + 1) and, if it notifies, the CCCD
/// (declaration + 2). Under bluetoothd the stack assigns them.
enum CPRBandGattLayout {
    /// Declaration handle of the service.
    static let firstHandle: UInt16 = 0x10

    /// The band's one service.
    static var services: [GattServiceDescription] {
        var next = firstHandle + 1
        let characteristics = CPRBandGATT.characteristics.map { characteristic in
            let handle = next
            next += characteristic.flags.contains(.notify) ? 3 : 2
            return GattCharacteristicDescription(
                uuid: characteristic.uuid, flags: characteristic.flags.bluezFlags, handle: handle)
        }
        return [
            GattServiceDescription(uuid: CPRBandGATT.service, handle: firstHandle, characteristics: characteristics)
        ]
    }
}
