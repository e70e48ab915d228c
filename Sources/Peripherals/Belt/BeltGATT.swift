/// The belt's GATT layout (belt.md §2): service and characteristic UUIDs in BlueZ spelling.
public enum BeltGATT: Sendable {
    /// The UUID the belt advertises (belt.md §1). Unrelated devices use it too, so never match on it alone.
    public static let advertisedServiceUUID = "65333333-a115-11e2-9e9a-0800200ca100"

    /// Service UUIDs. Android accepts a belt only if all three exist.
    public enum Service: Sendable {
        /// FE51, belt control service. Newer belts also advertise it.
        public static let control = BluetoothUUID.expand(0xFE51)
        /// FE52, sensor service.
        public static let sensor = BluetoothUUID.expand(0xFE52)
        /// FE53, debug service.
        public static let debug = BluetoothUUID.expand(0xFE53)
        /// All three, in handle order.
        public static let all = [control, sensor, debug]
    }

    /// Characteristic UUIDs.
    public enum Characteristic: Sendable {
        /// FE01, firmware version (read).
        public static let firmwareInfo = BluetoothUUID.expand(0xFE01)
        /// FE02, keep-alive (belt notifies, app acks by writing).
        public static let keepAlive = BluetoothUUID.expand(0xFE02)
        /// FE03, vibration commands.
        public static let vibrationCommand = BluetoothUUID.expand(0xFE03)
        /// FE04, button press events.
        public static let buttonPress = BluetoothUUID.expand(0xFE04)
        /// FE05, parameter requests and changes.
        public static let parameterRequest = BluetoothUUID.expand(0xFE05)
        /// FE06, parameter values and acknowledgements.
        public static let parameterNotification = BluetoothUUID.expand(0xFE06)
        /// FE07, buzzer tone patterns.
        public static let buzzerCommand = BluetoothUUID.expand(0xFE07)
        /// FE09, battery status (read and notify).
        public static let batteryStatus = BluetoothUUID.expand(0xFE09)
        /// FE0A, developer sensor commands.
        public static let sensorCommand = BluetoothUUID.expand(0xFE0A)
        /// FE0B, developer raw sensor stream.
        public static let sensorNotification = BluetoothUUID.expand(0xFE0B)
        /// FE0C, orientation (heading and accuracy).
        public static let orientation = BluetoothUUID.expand(0xFE0C)
        /// FE13, developer debug input.
        public static let debugInput = BluetoothUUID.expand(0xFE13)
        /// FE14, developer debug output (iOS subscribes to it).
        public static let debugOutput = BluetoothUUID.expand(0xFE14)
    }

    /// Every characteristic with its service and the flags a simulator exports, in handle order.
    /// The real flags are unknown (belt.md §2.2, §9.5); these follow how the clients use each one.
    public static let characteristics: [BeltCharacteristicDescription] = [
        .init(uuid: Characteristic.firmwareInfo, service: Service.control, name: "firmware info", flags: [.read]),
        .init(uuid: Characteristic.keepAlive, service: Service.control, name: "keep-alive", flags: [.notify, .write]),
        .init(
            uuid: Characteristic.vibrationCommand, service: Service.control, name: "vibration command", flags: [.write]),
        .init(uuid: Characteristic.buttonPress, service: Service.control, name: "button press", flags: [.notify]),
        .init(
            uuid: Characteristic.parameterRequest, service: Service.control, name: "parameter request", flags: [.write]),
        .init(
            uuid: Characteristic.parameterNotification, service: Service.control, name: "parameter notification",
            flags: [.notify]),
        .init(uuid: Characteristic.buzzerCommand, service: Service.control, name: "buzzer command", flags: [.write]),
        .init(
            uuid: Characteristic.batteryStatus, service: Service.control, name: "battery status",
            flags: [.read, .notify]),
        .init(uuid: Characteristic.sensorCommand, service: Service.sensor, name: "sensor command", flags: [.write]),
        .init(
            uuid: Characteristic.sensorNotification, service: Service.sensor, name: "sensor notification",
            flags: [.notify]),
        .init(uuid: Characteristic.orientation, service: Service.sensor, name: "orientation", flags: [.notify]),
        .init(uuid: Characteristic.debugInput, service: Service.debug, name: "debug input", flags: [.write]),
        .init(uuid: Characteristic.debugOutput, service: Service.debug, name: "debug output", flags: [.notify]),
    ]

    /// The description of a characteristic, looked up by UUID in any spelling.
    public static func characteristic(_ uuid: String) -> BeltCharacteristicDescription? {
        let wanted = BluetoothUUID.normalized(uuid)
        return characteristics.first { $0.uuid == wanted }
    }
}

/// One row of the GATT table: where a characteristic lives and what it allows.
public struct BeltCharacteristicDescription: Sendable, Equatable {
    /// Characteristic UUID (full, lower-case).
    public let uuid: String
    /// UUID of the service that holds it.
    public let service: String
    /// Human-readable name from the vendor libraries.
    public let name: String
    /// GATT properties to export.
    public let flags: GATTCharacteristicFlags

    /// Creates a row.
    public init(uuid: String, service: String, name: String, flags: GATTCharacteristicFlags) {
        self.uuid = uuid
        self.service = service
        self.name = name
        self.flags = flags
    }
}

/// The GATT properties the belt profile uses.
public struct GATTCharacteristicFlags: OptionSet, Sendable, Hashable {
    /// The flag bits.
    public let rawValue: UInt8
    /// Creates flags from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Readable.
    public static let read = GATTCharacteristicFlags(rawValue: 1 << 0)
    /// Writable with response (every client writes with response).
    public static let write = GATTCharacteristicFlags(rawValue: 1 << 1)
    /// Sends notifications.
    public static let notify = GATTCharacteristicFlags(rawValue: 1 << 2)
    /// Sends indications (a control point's answers).
    public static let indicate = GATTCharacteristicFlags(rawValue: 1 << 3)

    /// The flag strings of BlueZ's `org.bluez.GattCharacteristic1.Flags`.
    public var bluezFlags: [String] {
        var flags: [String] = []
        if contains(.read) { flags.append("read") }
        if contains(.write) { flags.append("write") }
        if contains(.notify) { flags.append("notify") }
        if contains(.indicate) { flags.append("indicate") }
        return flags
    }
}
