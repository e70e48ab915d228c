/// One exported GATT service and its characteristics, for the simulator's BlueZ application.
public struct Activ5ServiceDescription: Sendable, Equatable {
    /// Service UUID (full, lower-case).
    public let uuid: String
    /// Human-readable name, for logs.
    public let name: String
    /// Characteristics in handle order.
    public let characteristics: [Activ5CharacteristicDescription]

    /// Creates a service description.
    public init(uuid: String, name: String, characteristics: [Activ5CharacteristicDescription]) {
        self.uuid = uuid
        self.name = name
        self.characteristics = characteristics
    }
}

/// One exported characteristic: UUID, name and the GATT properties it allows.
public struct Activ5CharacteristicDescription: Sendable, Equatable {
    /// Characteristic UUID (full, lower-case).
    public let uuid: String
    /// Human-readable name, for logs.
    public let name: String
    /// Properties to export; `bluezFlags` gives BlueZ's spelling.
    public let flags: GATTCharacteristicFlags

    /// Creates a characteristic description.
    public init(uuid: String, name: String, flags: GATTCharacteristicFlags) {
        self.uuid = uuid
        self.name = name
        self.flags = flags
    }
}
