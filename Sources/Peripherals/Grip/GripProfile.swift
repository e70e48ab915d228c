#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every Fjorden-grip constant the bridge and the simulator use, in one replaceable value
/// (cpr-band-and-grip.md §B.5). The grip's wire format is **not public** (§B.0): UUIDs, event bytes and
/// the advertisement were never published, so the built-in `placeholder` is HYPOTHETICAL and is marked
/// `isHypothetical`. Fill in a real profile from a capture (pair with `bluetoothctl`, `notify on` every
/// notifiable characteristic, work each control and record with `btmon`) and load it from JSON with
/// `GripProfile.load(json:)`.
///
/// UUIDs may be written in any spelling (`"180F"`, `"0x2a19"`, full form); `load(json:)` and
/// `normalized()` turn them into BlueZ spelling, and the decoders compare normalised forms.
public struct GripProfile: Sendable, Equatable, Hashable, Codable {
    /// True while any value is a guess rather than a capture from a real grip. The bridge should log a
    /// warning when it runs on a hypothetical profile.
    public var isHypothetical: Bool
    /// Where the values come from, for people reading the file.
    public var notes: String
    /// A device matches when its name starts with one of these (case-insensitive).
    public var namePrefixes: [String]
    /// A device also matches when it advertises one of these services (empty while unknown).
    public var advertisedServiceUUIDs: [String]
    /// Whether the grip must be bonded (the SDK triggers iOS pairing; the grip keeps one host).
    public var pairingRequired: Bool
    /// How long to wait for a bonded grip on reconnect, seconds (SDK default 5.0).
    public var reconnectTimeoutSeconds: Double
    /// The vendor service that holds the event characteristic.
    public var eventServiceUUID: String
    /// The characteristic that notifies grip events.
    public var eventCharacteristicUUID: String
    /// Event payload byte ↔ SDK event. Bytes must be unique; an event may be missing.
    public var events: [EventCode]
    /// Where the battery level is read.
    public var battery: Battery
    /// Where the device information strings are read.
    public var deviceInformation: DeviceInformation
    /// Lowest firmware the bridge accepts; nil accepts every version (the SDK's minimum is not published).
    public var minimumFirmware: GripFirmwareVersion?

    /// One row of the event table: a one-byte payload and the event it means.
    public struct EventCode: Sendable, Equatable, Hashable, Codable {
        /// The notified byte.
        public var byte: UInt8
        /// The SDK event.
        public var event: GripEvent

        /// Creates a row.
        public init(byte: UInt8, event: GripEvent) {
            self.byte = byte
            self.event = event
        }
    }

    /// The battery source: a uint8 percentage (Battery Service layout).
    public struct Battery: Sendable, Equatable, Hashable, Codable {
        /// Service UUID.
        public var serviceUUID: String
        /// Level characteristic UUID (read, notify).
        public var levelCharacteristicUUID: String
        /// Levels below this are low (SDK `isLow`: below 30 %).
        public var lowThresholdPercent: Int

        /// Creates a battery source.
        public init(serviceUUID: String, levelCharacteristicUUID: String, lowThresholdPercent: Int) {
            self.serviceUUID = serviceUUID
            self.levelCharacteristicUUID = levelCharacteristicUUID
            self.lowThresholdPercent = lowThresholdPercent
        }
    }

    /// The device information strings (the SDK's `GripInfo`).
    public struct DeviceInformation: Sendable, Equatable, Hashable, Codable {
        /// Service UUID.
        public var serviceUUID: String
        /// Manufacturer name string.
        public var manufacturerNameUUID: String
        /// Model number string.
        public var modelNumberUUID: String
        /// Hardware revision string.
        public var hardwareRevisionUUID: String
        /// Firmware revision string, `X.Y.Z`.
        public var firmwareRevisionUUID: String

        /// Creates a device information source.
        public init(
            serviceUUID: String, manufacturerNameUUID: String, modelNumberUUID: String, hardwareRevisionUUID: String,
            firmwareRevisionUUID: String
        ) {
            self.serviceUUID = serviceUUID
            self.manufacturerNameUUID = manufacturerNameUUID
            self.modelNumberUUID = modelNumberUUID
            self.hardwareRevisionUUID = hardwareRevisionUUID
            self.firmwareRevisionUUID = firmwareRevisionUUID
        }

        /// The four string characteristics in the order above.
        public var characteristicUUIDs: [String] {
            [manufacturerNameUUID, modelNumberUUID, hardwareRevisionUUID, firmwareRevisionUUID]
        }
    }

    /// Creates a profile.
    public init(
        isHypothetical: Bool, notes: String, namePrefixes: [String], advertisedServiceUUIDs: [String],
        pairingRequired: Bool, reconnectTimeoutSeconds: Double, eventServiceUUID: String,
        eventCharacteristicUUID: String, events: [EventCode], battery: Battery, deviceInformation: DeviceInformation,
        minimumFirmware: GripFirmwareVersion?
    ) {
        self.isHypothetical = isHypothetical
        self.notes = notes
        self.namePrefixes = namePrefixes
        self.advertisedServiceUUIDs = advertisedServiceUUIDs
        self.pairingRequired = pairingRequired
        self.reconnectTimeoutSeconds = reconnectTimeoutSeconds
        self.eventServiceUUID = eventServiceUUID
        self.eventCharacteristicUUID = eventCharacteristicUUID
        self.events = events
        self.battery = battery
        self.deviceInformation = deviceInformation
        self.minimumFirmware = minimumFirmware
    }

    /// Decodes a profile from JSON, normalises its UUIDs and checks it.
    /// - Throws: `DecodingError` for malformed JSON, `FieldError` for an inconsistent profile.
    public static func load(json: Data) throws -> GripProfile {
        let profile = try JSONDecoder().decode(GripProfile.self, from: json).normalized()
        try profile.validate()
        return profile
    }

    /// The profile as pretty-printed JSON with sorted keys.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// The same profile with every UUID in BlueZ spelling.
    public func normalized() -> GripProfile {
        var copy = self
        copy.advertisedServiceUUIDs = advertisedServiceUUIDs.map(BluetoothUUID.normalized)
        copy.eventServiceUUID = BluetoothUUID.normalized(eventServiceUUID)
        copy.eventCharacteristicUUID = BluetoothUUID.normalized(eventCharacteristicUUID)
        copy.battery.serviceUUID = BluetoothUUID.normalized(battery.serviceUUID)
        copy.battery.levelCharacteristicUUID = BluetoothUUID.normalized(battery.levelCharacteristicUUID)
        let info = deviceInformation
        copy.deviceInformation = DeviceInformation(
            serviceUUID: BluetoothUUID.normalized(info.serviceUUID),
            manufacturerNameUUID: BluetoothUUID.normalized(info.manufacturerNameUUID),
            modelNumberUUID: BluetoothUUID.normalized(info.modelNumberUUID),
            hardwareRevisionUUID: BluetoothUUID.normalized(info.hardwareRevisionUUID),
            firmwareRevisionUUID: BluetoothUUID.normalized(info.firmwareRevisionUUID))
        return copy
    }

    /// Events of the SDK the table has no byte for (a partial capture is allowed).
    public var unmappedEvents: [GripEvent] {
        GripEvent.allCases.filter { event in !events.contains { $0.event == event } }
    }

    /// Checks the profile for values the decoders cannot work with.
    /// - Throws: `FieldError` naming the field: a UUID that is not 128-bit after normalising, a
    ///   repeated event byte, an empty name-prefix list with no service UUID either, a threshold outside
    ///   0…100 or a timeout that is not positive.
    public func validate() throws(FieldError) {
        let uuids: [(String, String)] =
            advertisedServiceUUIDs.map { ("advertisedServiceUUIDs", $0) } + [
                ("eventServiceUUID", eventServiceUUID), ("eventCharacteristicUUID", eventCharacteristicUUID),
                ("battery.serviceUUID", battery.serviceUUID),
                ("battery.levelCharacteristicUUID", battery.levelCharacteristicUUID),
                ("deviceInformation.serviceUUID", deviceInformation.serviceUUID),
                ("deviceInformation.manufacturerNameUUID", deviceInformation.manufacturerNameUUID),
                ("deviceInformation.modelNumberUUID", deviceInformation.modelNumberUUID),
                ("deviceInformation.hardwareRevisionUUID", deviceInformation.hardwareRevisionUUID),
                ("deviceInformation.firmwareRevisionUUID", deviceInformation.firmwareRevisionUUID),
            ]
        for (field, uuid) in uuids where !Self.isFullUUID(BluetoothUUID.normalized(uuid)) {
            throw FieldError(field: field, message: "\(uuid.debugDescription) is not a Bluetooth UUID")
        }
        var seen: Set<UInt8> = []
        for code in events where !seen.insert(code.byte).inserted {
            throw FieldError(field: "events", message: "byte \(code.byte) is mapped twice")
        }
        if namePrefixes.allSatisfy(\.isEmpty) && advertisedServiceUUIDs.isEmpty {
            throw FieldError(field: "namePrefixes", message: "no name prefix and no service UUID to match")
        }
        guard (0...100).contains(battery.lowThresholdPercent) else {
            throw FieldError(field: "battery.lowThresholdPercent", message: "must lie in 0…100")
        }
        guard reconnectTimeoutSeconds > 0, reconnectTimeoutSeconds.isFinite else {
            throw FieldError(field: "reconnectTimeoutSeconds", message: "must be positive")
        }
    }

    private static func isFullUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
