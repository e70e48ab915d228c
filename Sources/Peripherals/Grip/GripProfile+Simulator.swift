/// Simulator-side encoders and GATT table, built from the same profile as the bridge's decoders, so a
/// simulated grip always speaks whatever profile the bridge is configured with.
extension GripProfile {
    /// The one-byte notification for an event.
    /// - Throws: `FieldError` (field `events`) when the table has no byte for the event.
    public func encoded(event: GripEvent) throws(FieldError) -> [UInt8] {
        guard let code = events.first(where: { $0.event == event }) else {
            throw FieldError(field: "events", message: "no byte for \(event.rawValue)")
        }
        return [code.byte]
    }

    /// The battery level byte, clamped to 0–100.
    public func encodedBattery(level: Int) -> [UInt8] { [UInt8(level.clamped(to: 0...100))] }

    /// A device information string as UTF-8 (no terminator).
    public func encodedDeviceInformation(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The firmware revision string `X.Y.Z` as UTF-8.
    public func encodedFirmware(_ version: GripFirmwareVersion) -> [UInt8] { Array(version.description.utf8) }

    /// Every characteristic a simulated grip exports, with its service and flags: the event
    /// characteristic (notify), the battery level (read, notify) and the four device information
    /// strings (read). UUIDs in BlueZ spelling.
    public var simulatorCharacteristics: [BeltCharacteristicDescription] {
        let profile = normalized()
        let info = profile.deviceInformation
        return [
            .init(
                uuid: profile.eventCharacteristicUUID, service: profile.eventServiceUUID, name: "grip events",
                flags: [.notify]),
            .init(
                uuid: profile.battery.levelCharacteristicUUID, service: profile.battery.serviceUUID,
                name: "battery level", flags: [.read, .notify]),
            .init(
                uuid: info.manufacturerNameUUID, service: info.serviceUUID, name: "manufacturer name", flags: [.read]),
            .init(uuid: info.modelNumberUUID, service: info.serviceUUID, name: "model number", flags: [.read]),
            .init(
                uuid: info.hardwareRevisionUUID, service: info.serviceUUID, name: "hardware revision", flags: [.read]),
            .init(
                uuid: info.firmwareRevisionUUID, service: info.serviceUUID, name: "firmware revision", flags: [.read]),
        ]
    }
}
