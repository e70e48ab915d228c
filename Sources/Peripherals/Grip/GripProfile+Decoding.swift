/// Bridge-side decoders driven by the profile (cpr-band-and-grip.md §B.3–§B.5).
extension GripProfile {
    /// Whether a scanned device is a grip: its name starts with one of `namePrefixes` (any case), or it
    /// advertises one of `advertisedServiceUUIDs` (any spelling).
    public func matches(name: String?, serviceUUIDs: [String]) -> Bool {
        if let name = name?.lowercased(),
            namePrefixes.contains(where: { !$0.isEmpty && name.hasPrefix($0.lowercased()) })
        {
            return true
        }
        let wanted = Set(advertisedServiceUUIDs.map(BluetoothUUID.normalized))
        return serviceUUIDs.contains { wanted.contains(BluetoothUUID.normalized($0)) }
    }

    /// The event of a notification on the event characteristic: exactly one byte, looked up in `events`.
    /// - Throws: `GripDecodeError` for an empty or longer payload or a byte the table does not hold.
    public func event(bytes: [UInt8]) throws(GripDecodeError) -> GripEvent {
        let uuid = BluetoothUUID.normalized(eventCharacteristicUUID)
        let byte = try Self.singleByte(bytes, characteristic: uuid)
        guard let code = events.first(where: { $0.byte == byte }) else {
            throw GripDecodeError(characteristic: uuid, reason: .unknownEventByte(byte))
        }
        return code.event
    }

    /// The battery from the level characteristic: one byte, 0–100 %, low below the threshold.
    /// - Throws: `GripDecodeError` for an empty or longer payload or a level above 100.
    public func batteryInfo(bytes: [UInt8]) throws(GripDecodeError) -> GripBatteryInfo {
        let uuid = BluetoothUUID.normalized(battery.levelCharacteristicUUID)
        let level = try Self.singleByte(bytes, characteristic: uuid)
        guard level <= 100 else { throw GripDecodeError(characteristic: uuid, reason: .batteryLevelOutOfRange(level)) }
        return GripBatteryInfo(level: Int(level), isLow: Int(level) < battery.lowThresholdPercent)
    }

    /// A device information string: UTF-8 with trailing NULs and white space removed.
    /// - Throws: `GripDecodeReason.notUTF8`.
    public func deviceInformationString(characteristic: String, bytes: [UInt8]) throws(GripDecodeError) -> String {
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw GripDecodeError(characteristic: BluetoothUUID.normalized(characteristic), reason: .notUTF8)
        }
        return text.trimming { $0.isWhitespace || $0 == "\0" }
    }

    /// The firmware version from the firmware revision characteristic.
    /// - Throws: `GripDecodeError` when the value is not UTF-8 or not `X.Y.Z`.
    public func firmwareVersion(bytes: [UInt8]) throws(GripDecodeError) -> GripFirmwareVersion {
        let uuid = BluetoothUUID.normalized(deviceInformation.firmwareRevisionUUID)
        let text = try deviceInformationString(characteristic: uuid, bytes: bytes)
        guard let version = GripFirmwareVersion(string: text) else {
            throw GripDecodeError(characteristic: uuid, reason: .invalidFirmwareVersion(text))
        }
        return version
    }

    /// Whether a firmware version is at least `minimumFirmware` (always true when it is unset). The
    /// SDK refuses older grips with `gripUnsupportedFirmwareVersion`.
    public func supportsFirmware(_ version: GripFirmwareVersion) -> Bool {
        minimumFirmware.map { version >= $0 } ?? true
    }

    /// Parses a firmware revision string and compares it with `minimumFirmware`.
    /// - Throws: `GripDecodeReason.invalidFirmwareVersion` when the string is not `X.Y.Z`.
    public func supportsFirmware(_ revision: String) throws(GripDecodeError) -> Bool {
        guard let version = GripFirmwareVersion(string: revision) else {
            throw GripDecodeError(
                characteristic: BluetoothUUID.normalized(deviceInformation.firmwareRevisionUUID),
                reason: .invalidFirmwareVersion(revision))
        }
        return supportsFirmware(version)
    }

    private static func singleByte(_ bytes: [UInt8], characteristic: String) throws(GripDecodeError) -> UInt8 {
        guard let first = bytes.first else { throw GripDecodeError(characteristic: characteristic, reason: .empty) }
        guard bytes.count == 1 else {
            throw GripDecodeError(
                characteristic: characteristic, reason: .unexpectedLength(expected: 1, actual: bytes.count))
        }
        return first
    }
}
