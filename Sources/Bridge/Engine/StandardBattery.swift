import Peripherals

/// The Bluetooth SIG's Battery Service (0x180F) as any standard device offers it: its level on the retained
/// `battery` leaf (`{"level":87}`), the shape every family's battery has.
enum StandardBattery {
    static let service = HeartRateGATT.Service.battery
    static let level = HeartRateGATT.Characteristic.batteryLevel

    static func leaf(_ percent: Int) -> LeafOutput {
        .state("battery", JSONValue.object(["level": .number(Double(percent))]).text)
    }

    /// The level as a stream: read first, then notified where the device notifies it; optional, as a device
    /// whose level only answers reads, or one without the service, is still that device.
    static func stream<State: Sendable>() -> ProfileStream<State> {
        ProfileStream(characteristic: level, service: service, isOptional: true, readFirst: true) { _, bytes in
            [leaf(try HeartRateBatteryLevel(bytes: bytes).percent)]
        }
    }
}
