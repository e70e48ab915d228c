import Peripherals

/// The Bluetooth SIG's Device Information service (0x180A) as any standard device offers it: what a heart rate strap
/// or a declared device says of itself, read once per connection into its retained `info`.
enum StandardDeviceInformation {
    static let service = BluetoothUUID.expand(0x180A)
    /// The characteristics read, by the key of `info` each fills.
    static let characteristics: [(key: String, uuid: String)] = [
        ("manufacturer", BluetoothUUID.expand(0x2A29)), ("model", BluetoothUUID.expand(0x2A24)),
        ("serial", BluetoothUUID.expand(0x2A25)), ("hardware", BluetoothUUID.expand(0x2A27)),
        ("firmware", BluetoothUUID.expand(0x2A26)),
    ]

    /// What the device's Device Information says, by key: optional, so a device without it, or one that refuses a
    /// read, gives fewer keys; a string is taken up to its first NUL, and only when it is UTF-8.
    /// `exported`: the characteristics the device has (`ConnectedDevice.characteristics()`, listed once a handshake).
    static func read<Profile: FamilyProfile>(from device: ConnectedDevice<Profile>, exported: Set<String>) async
        -> [String: JSONValue]
    {
        var info: [String: JSONValue] = [:]
        for (key, uuid) in characteristics where exported.contains(uuid) {
            guard let bytes = try? await device.read(uuid, in: service) else { continue }
            if let text = String(validating: bytes.prefix { $0 != 0 }, as: UTF8.self) { info[key] = .string(text) }
        }
        return info
    }
}
