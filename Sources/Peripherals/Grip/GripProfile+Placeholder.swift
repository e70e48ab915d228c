extension GripProfile {
    /// A HYPOTHETICAL profile to run the bridge and the simulator against until a real grip is captured.
    /// `isHypothetical` is true. What each value rests on (cpr-band-and-grip.md §B.3–§B.5):
    ///
    /// - Name prefix `Fjorden`: HYPOTHETICAL. iOS lists a bonded grip as "Fjorden Grip" and Fjorden's own
    ///   simulator advertises "Fjorden Grip Simulator"; the advertised name of a real grip is unknown.
    /// - Advertised services: none (unknown).
    /// - Event service `597f3fa1-…` and characteristic `c73bd0bc-…`: HYPOTHETICAL, randomly generated
    ///   version-4 UUIDs that stand in for the unknown vendor UUIDs; no real grip uses them.
    /// - Event bytes `0x01`–`0x0E` in the SDK's declaration order: HYPOTHETICAL; the SDK's order is not a
    ///   wire encoding.
    /// - Battery Service 180F / Battery Level 2A19 as uint8 percent: inferred, not confirmed. The low
    ///   threshold of 30 % is documented (`BatteryInfo.isLow`).
    /// - Device Information 180A with 2A29, 2A24, 2A27, 2A26: inferred from the `GripInfo` fields.
    /// - Pairing required and the 5.0 s reconnect timeout: documented SDK behaviour.
    /// - Minimum firmware: unset, because the SDK enforces a minimum it does not publish.
    public static let placeholder = GripProfile(
        isHypothetical: true,
        notes: "HYPOTHETICAL placeholder: the grip's GATT layout and event encoding are not public. "
            + "Replace the UUIDs and event bytes with values captured from a real grip.",
        namePrefixes: ["Fjorden"],
        advertisedServiceUUIDs: [],
        pairingRequired: true,
        reconnectTimeoutSeconds: 5.0,
        eventServiceUUID: "597f3fa1-b263-40be-b20f-67c584d15d34",
        eventCharacteristicUUID: "c73bd0bc-e6c7-4580-820f-294274854b28",
        events: GripEvent.allCases.enumerated().map { EventCode(byte: UInt8($0.offset + 1), event: $0.element) },
        battery: Battery(
            serviceUUID: BluetoothUUID.expand(0x180F), levelCharacteristicUUID: BluetoothUUID.expand(0x2A19),
            lowThresholdPercent: 30),
        deviceInformation: DeviceInformation(
            serviceUUID: BluetoothUUID.expand(0x180A), manufacturerNameUUID: BluetoothUUID.expand(0x2A29),
            modelNumberUUID: BluetoothUUID.expand(0x2A24), hardwareRevisionUUID: BluetoothUUID.expand(0x2A27),
            firmwareRevisionUUID: BluetoothUUID.expand(0x2A26)),
        minimumFirmware: nil)
}
