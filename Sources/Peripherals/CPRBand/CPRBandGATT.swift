/// The row type of a CPR-Band GATT table. The belt's description holds exactly what every profile
/// needs (UUID, service, name, flags), so the CPR-Band reuses it under its own name.
public typealias CPRBandCharacteristicDescription = BeltCharacteristicDescription

/// The CPR-Band's GATT layout (cpr-band-and-grip.md §A.2): one service, four characteristics, UUIDs
/// in BlueZ spelling (full 128-bit, lower-case).
///
/// Credo's AIO manikins use the same FFF0–FFF4 UUIDs with different meanings (FFF1 position, FFF2
/// breath, FFF3 depth), so these UUIDs never identify a band on their own; see `CPRBandAdvertisement`.
public enum CPRBandGATT: Sendable {
    /// FFF0, the CPR-Band service.
    public static let service = BluetoothUUID.expand(0xFFF0)

    /// Characteristic UUIDs, all in `service`.
    public enum Characteristic: Sendable {
        /// FFF1, peak compression depth in millimetres, one byte per compression (notify).
        public static let depth = BluetoothUUID.expand(0xFFF1)
        /// FFF2, sign-folded wrist angle, one byte about every 100 ms (notify).
        public static let angle = BluetoothUUID.expand(0xFFF2)
        /// FFF3, battery byte (read; the Bus library polls it every 60 s).
        public static let battery = BluetoothUUID.expand(0xFFF3)
        /// FFF4, commands from the app, one byte per write, with response.
        public static let command = BluetoothUUID.expand(0xFFF4)
    }

    /// 2902, the client characteristic configuration descriptor on FFF1 and FFF2 (Android writes `01 00`).
    public static let clientCharacteristicConfiguration = BluetoothUUID.expand(0x2902)

    /// The characteristics a client subscribes to, in the order the Bus library enables them.
    public static let notifyingCharacteristics = [Characteristic.depth, Characteristic.angle]

    /// Every characteristic with the flags a simulator exports, in handle order. The real flags are
    /// unknown (§A.2); these follow how the clients use each one: FFF1/FFF2 notify, FFF3 read, FFF4 write
    /// with response. Optional extras (read on FFF1/FFF2, notify on FFF3) are left out.
    public static let characteristics: [CPRBandCharacteristicDescription] = [
        .init(uuid: Characteristic.depth, service: service, name: "depth", flags: [.notify]),
        .init(uuid: Characteristic.angle, service: service, name: "angle", flags: [.notify]),
        .init(uuid: Characteristic.battery, service: service, name: "battery", flags: [.read]),
        .init(uuid: Characteristic.command, service: service, name: "command", flags: [.write]),
    ]

    /// The description of a characteristic, looked up by UUID in any spelling.
    public static func characteristic(_ uuid: String) -> CPRBandCharacteristicDescription? {
        let wanted = BluetoothUUID.normalized(uuid)
        return characteristics.first { $0.uuid == wanted }
    }
}
