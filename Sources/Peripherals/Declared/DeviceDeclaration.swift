/// A device described as data rather than written in Swift (issue #59): how it is recognised, which of its
/// characteristics are read, polled or subscribed, and how each value is decoded into named fields. Read from YAML
/// by the daemon's configuration (`DeclarationReader`), checked whole before any is used.
public struct DeviceDeclaration: Sendable, Equatable {
    /// Its name in topics (`<family>/<id>/…`): lower-case letters, digits and `_`, not a written family's.
    public var family: String
    /// What people call it (`Cycling power meter`).
    public var label: String
    public var match: Match
    public var characteristics: [DeclaredCharacteristic]
    /// What it may be told (`<family>/<id>/cmd/<name>`).
    public var commands: [DeclaredCommand]

    public init(
        family: String, label: String, match: Match, characteristics: [DeclaredCharacteristic],
        commands: [DeclaredCommand] = []
    ) {
        self.family = family
        self.label = label
        self.match = match
        self.characteristics = characteristics
        self.commands = commands
    }

    /// How an advertising device is recognised as one: any of its name prefixes, advertised services or
    /// manufacturer ids.
    public struct Match: Sendable, Equatable {
        public var namePrefixes: [String] = []
        /// Full lower-case UUIDs.
        public var services: [String] = []
        public var manufacturers: [UInt16] = []

        public init(namePrefixes: [String] = [], services: [String] = [], manufacturers: [UInt16] = []) {
            self.namePrefixes = namePrefixes
            self.services = services
            self.manufacturers = manufacturers
        }

        /// Whether nothing would recognise a device.
        public var isEmpty: Bool { namePrefixes.isEmpty && services.isEmpty && manufacturers.isEmpty }
    }
}

/// One characteristic of a declared device and how its values reach the broker.
public struct DeclaredCharacteristic: Sendable, Equatable {
    /// Full lower-case UUIDs.
    public var uuid: String
    public var service: String
    public var access: Access
    /// `<family>/<id>/<topic>` with one JSON object of its fields; nil: each field on a leaf of its own name.
    public var topic: String?
    /// Whether its topics are retained (a state such as a battery level or a weight) or not (a stream).
    public var retain: Bool
    public var fields: [DeclaredField]

    public init(
        uuid: String, service: String, access: Access, topic: String? = nil, retain: Bool, fields: [DeclaredField]
    ) {
        self.uuid = uuid
        self.service = service
        self.access = access
        self.topic = topic
        self.retain = retain
        self.fields = fields
    }

    /// The leaves it publishes on (`<family>/<id>/<leaf>`): its topic, or its bit fields' and published fields'
    /// names, in the order they are published, each once (a field may have an alternative under the opposite bit).
    public var leaves: [String] {
        if let topic { return [topic] }
        var seen: Set<String> = []
        return fields.flatMap { field in field.bits.map(\.name) + (field.published ? [field.name] : []) }
            .filter { seen.insert($0).inserted }
    }

    /// The leaves it publishes retained (`true`) or not: the whole topic as the characteristic is; a field on its own
    /// leaf as it says, or as the characteristic; a bit field as it says, or as the field that holds it.
    public func leaves(retained: Bool) -> [String] {
        if let topic { return retain == retained ? [topic] : [] }
        var seen: Set<String> = []
        return fields.flatMap { field in
            field.bits.filter { retains($0, of: field) == retained }.map(\.name)
                + (field.published && retains(field) == retained ? [field.name] : [])
        }.filter { seen.insert($0).inserted }
    }

    /// The object id of the Home Assistant entity of the value `name` (a field's or a bit field's): `<topic>_<name>`
    /// within a JSON topic, else the name. Commands' entities take their names, so the reader keeps the two apart.
    public func entityObject(of name: String) -> String { topic.map { "\($0)_\(name)" } ?? name }

    /// Whether `field`'s value is retained: as the field says where it has a leaf of its own, else as the
    /// characteristic (a JSON topic is retained whole).
    public func retains(_ field: DeclaredField) -> Bool { topic == nil ? field.retain ?? retain : retain }

    /// Whether a bit field's value is retained: as it says, else as the field that holds it.
    public func retains(_ bits: DeclaredField.BitField, of field: DeclaredField) -> Bool {
        topic == nil ? bits.retain ?? retains(field) : retain
    }

    public enum Access: Sendable, Equatable {
        /// Read once at connect.
        case read
        /// Read at connect and every `Duration`.
        case poll(Duration)
        case notify
        case indicate
    }
}
