/// Which of the two wire protocols a device speaks (activ5.md §3).
public enum Activ5Protocol: String, Sendable, CaseIterable {
    /// ASCII messages on 5A01/5A02 only; force arrives as `IS<n>/IS` frames.
    case legacy
    /// "API spec v2": service F0F0, force on F0FE, IMU on F0F5. The legacy channel is still there.
    case new

    /// Detects the protocol from discovered services and characteristics (UUIDs in any spelling).
    ///
    /// New if the F0F0 service or the F0FE characteristic is present (activ5.md §3's recommendation): iOS
    /// checks for F0F0 but then decides per operation on F0FE, so either one is taken as proof.
    public static func detect(serviceUUIDs: [String], characteristicUUIDs: [String]) -> Activ5Protocol {
        let services = Set(serviceUUIDs.map(BluetoothUUID.normalized))
        let characteristics = Set(characteristicUUIDs.map(BluetoothUUID.normalized))
        let isNew =
            services.contains(Activ5GATT.Service.newProtocol)
            || characteristics.contains(Activ5GATT.Characteristic.force)
        return isNew ? .new : .legacy
    }

    /// Whether the device is in "game mode" (it exposes HID 0x1812); the OLIVER client disconnects then.
    public static func isInGameMode(serviceUUIDs: [String]) -> Bool {
        serviceUUIDs.contains { BluetoothUUID.normalized($0) == Activ5GATT.Service.humanInterfaceDevice }
    }
}
