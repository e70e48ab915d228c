/// A GATT service to serve, as plain data: what `GattApplication` exports as `org.bluez.GattService1`.
public struct GattServiceDescription: Sendable, Equatable {
    /// Service UUID, full 128-bit lower-case (`0000fe51-0000-1000-8000-00805f9b34fb`).
    public var uuid: String
    /// Whether the service is primary.
    public var primary: Bool
    /// Attribute handle of the service declaration; 0 lets the stack choose.
    public var handle: UInt16
    /// Its characteristics, in handle order.
    public var characteristics: [GattCharacteristicDescription]

    /// Creates a service description.
    public init(
        uuid: String, primary: Bool = true, handle: UInt16 = 0, characteristics: [GattCharacteristicDescription]
    ) {
        self.uuid = uuid.lowercased()
        self.primary = primary
        self.handle = handle
        self.characteristics = characteristics
    }
}

/// A characteristic to serve (`org.bluez.GattCharacteristic1`).
public struct GattCharacteristicDescription: Sendable, Equatable {
    /// Characteristic UUID, full 128-bit lower-case.
    public var uuid: String
    /// BlueZ flag strings (`read`, `write`, `write-without-response`, `notify`, `indicate`, …).
    public var flags: [String]
    /// Handle of the characteristic declaration (the value follows at `handle + 1`); 0 lets the stack choose.
    /// Leave room after it: with explicit descriptors the CCCD goes to `handle + 2`.
    public var handle: UInt16
    /// Descriptors other than the client characteristic configuration, which `GattApplication` adds
    /// itself when the stack needs it (see ``GattHandleLayout``).
    public var descriptors: [GattDescriptorDescription]

    /// Creates a characteristic description.
    public init(uuid: String, flags: [String], handle: UInt16 = 0, descriptors: [GattDescriptorDescription] = []) {
        self.uuid = uuid.lowercased()
        self.flags = flags
        self.handle = handle
        self.descriptors = descriptors
    }

    /// Whether a central may subscribe (notify or indicate).
    public var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
    /// Whether a central may read the value.
    public var canRead: Bool { flags.contains { $0 == "read" || $0.hasSuffix("-read") } }
    /// Whether a central may write with response.
    public var canWriteWithResponse: Bool {
        flags.contains { $0 == "write" || $0 == "reliable-write" || $0.hasSuffix("-write") }
    }
    /// Whether a central may write without response.
    public var canWriteWithoutResponse: Bool { flags.contains("write-without-response") }
}

/// A descriptor to serve (`org.bluez.GattDescriptor1`), with a fixed value.
public struct GattDescriptorDescription: Sendable, Equatable {
    /// The Client Characteristic Configuration descriptor's UUID (0x2902).
    public static let clientConfigurationUUID = "00002902-0000-1000-8000-00805f9b34fb"

    /// Descriptor UUID, full 128-bit lower-case.
    public var uuid: String
    /// BlueZ flag strings (`read`, `write`, …).
    public var flags: [String]
    /// Attribute handle; 0 lets the stack choose.
    public var handle: UInt16
    /// The value a read returns.
    public var value: [UInt8]

    /// Creates a descriptor description.
    public init(uuid: String, flags: [String] = ["read"], handle: UInt16 = 0, value: [UInt8] = []) {
        self.uuid = uuid.lowercased()
        self.flags = flags
        self.handle = handle
        self.value = value
    }
}
