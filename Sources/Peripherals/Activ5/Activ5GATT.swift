/// The Activ5's GATT layout (activ5.md §2): every UUID is a 16-bit value on the Bluetooth base UUID,
/// spelt here as BlueZ reports it (full, lower-case).
public enum Activ5GATT: Sendable {
    /// The service the device advertises and the iOS and Web clients scan for (activ5.md §1).
    public static let advertisedServiceUUID = Service.legacy

    /// Service UUIDs.
    public enum Service: Sendable {
        /// 5000, the legacy command channel (5A01/5A02); advertised.
        public static let legacy = BluetoothUUID.expand(0x5000)
        /// F0F0; its presence marks a "new protocol" device (activ5.md §3).
        public static let newProtocol = BluetoothUUID.expand(0xF0F0)
        /// 180F, the SIG Battery Service; assumed parent of 2A19 (activ5.md §2 [U]).
        public static let battery = BluetoothUUID.expand(0x180F)
        /// 180A, the SIG Device Information service; assumed parent of 2A25 (activ5.md §2 [U]).
        public static let deviceInformation = BluetoothUUID.expand(0x180A)
        /// 1812, HID: a device exposing it is in "game mode" and the OLIVER client disconnects (activ5.md §1).
        public static let humanInterfaceDevice = BluetoothUUID.expand(0x1812)
    }

    /// Characteristic and descriptor UUIDs.
    public enum Characteristic: Sendable {
        /// 5A01, device→host ASCII messages (notify).
        public static let legacyMessages = BluetoothUUID.expand(0x5A01)
        /// 5A02, host→device ASCII commands (write with response).
        public static let legacyCommands = BluetoothUUID.expand(0x5A02)
        /// F0FE, force as int16 LE (notify; subscribing starts the stream).
        public static let force = BluetoothUUID.expand(0xF0FE)
        /// F0F1, the force characteristic of an older iOS library build. No shipped firmware is known to
        /// use it, so nothing here decodes it; it is listed so that logs can name it.
        public static let olderForce = BluetoothUUID.expand(0xF0F1)
        /// F0F3, "timestamp"; no client reads it and its format is unknown (activ5.md §5.3).
        public static let timestamp = BluetoothUUID.expand(0xF0F3)
        /// F0F5, IMU samples (notify), 16 bytes.
        public static let imu = BluetoothUUID.expand(0xF0F5)
        /// F0F7, first half of the device ID (read).
        public static let deviceIDPart1 = BluetoothUUID.expand(0xF0F7)
        /// F0F8, second half of the device ID, NUL-padded (read).
        public static let deviceIDPart2 = BluetoothUUID.expand(0xF0F8)
        /// F0FA, sample period in ms as int16 LE (write with response).
        public static let samplePeriod = BluetoothUUID.expand(0xF0FA)
        /// 2A19, SIG Battery Level in percent (read).
        public static let batteryLevel = BluetoothUUID.expand(0x2A19)
        /// 2A25, SIG Serial Number String (read).
        public static let serialNumber = BluetoothUUID.expand(0x2A25)
        /// 2902, the Client Characteristic Configuration descriptor clients write `01 00` to.
        public static let clientConfiguration = BluetoothUUID.expand(0x2902)
    }

    /// The services a simulator exports for a protocol, in handle order.
    ///
    /// Decision (activ5.md §2 [U], §10.1): only 5A01/5A02's parent is confirmed. The new-protocol profile puts
    /// the F0xx characteristics under F0F0, 2A19 under Battery (180F) and 2A25 under Device Information (180A),
    /// the SIG homes of those characteristics. The legacy profile exports 5000 alone. Clients look
    /// characteristics up by UUID across all services, so the parent choice cannot break them. F0F3 is exported
    /// as readable because no client touches it; F0F1 is not exported.
    public static func services(for wireProtocol: Activ5Protocol) -> [Activ5ServiceDescription] {
        switch wireProtocol {
        case .legacy: [legacyService]
        case .new: [legacyService, newProtocolService, batteryService, deviceInformationService]
        }
    }

    /// 5000 with the legacy channel; present in both profiles (iOS writes STOP! to 5A02 even on new devices).
    public static let legacyService = Activ5ServiceDescription(
        uuid: Service.legacy, name: "activ5 legacy",
        characteristics: [
            .init(uuid: Characteristic.legacyMessages, name: "messages", flags: [.notify]),
            .init(uuid: Characteristic.legacyCommands, name: "commands", flags: [.write]),
        ])

    /// F0F0 with the new-protocol characteristics.
    public static let newProtocolService = Activ5ServiceDescription(
        uuid: Service.newProtocol, name: "activ5 data",
        characteristics: [
            .init(uuid: Characteristic.timestamp, name: "timestamp", flags: [.read]),
            .init(uuid: Characteristic.imu, name: "imu", flags: [.notify]),
            .init(uuid: Characteristic.deviceIDPart1, name: "device id 1", flags: [.read]),
            .init(uuid: Characteristic.deviceIDPart2, name: "device id 2", flags: [.read]),
            .init(uuid: Characteristic.samplePeriod, name: "sample period", flags: [.write]),
            .init(uuid: Characteristic.force, name: "force", flags: [.notify]),
        ])

    /// 180F with Battery Level.
    public static let batteryService = Activ5ServiceDescription(
        uuid: Service.battery, name: "battery",
        characteristics: [.init(uuid: Characteristic.batteryLevel, name: "battery level", flags: [.read])])

    /// 180A with Serial Number String.
    public static let deviceInformationService = Activ5ServiceDescription(
        uuid: Service.deviceInformation, name: "device information",
        characteristics: [.init(uuid: Characteristic.serialNumber, name: "serial number", flags: [.read])])

    /// The description of an exported characteristic, looked up by UUID in any spelling.
    public static func characteristic(_ uuid: String) -> Activ5CharacteristicDescription? {
        let wanted = BluetoothUUID.normalized(uuid)
        return services(for: .new).lazy.flatMap(\.characteristics).first { $0.uuid == wanted }
    }
}
