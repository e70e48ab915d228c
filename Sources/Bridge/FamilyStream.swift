/// A family's main stream as the benchmark (`gatt2mqtt-bench`) drives, relays and matches it: which
/// characteristic carries it and on which leaf the bridge publishes it, how the family's simulator streams a
/// sequence the benchmark can tell apart at a given rate, and how a value and a payload map back to that
/// sequence. Each family declares its own in its folder (`Bridge/<Family>/<Family>Stream.swift`);
/// `FamilyStream.all` lists them in the registry's order, so the bench, its floor relay and its report take a
/// new family from `FamilyRegistry` alone.
public struct FamilyStream: Sendable {
    public let family: DeviceFamily
    /// The stream in a report: "belt headings".
    public let name: String
    /// The characteristic that carries it (full UUID).
    public let characteristic: String
    /// `<family>/<id>/<leaf>`: the topic the bridge publishes it on, with this QoS.
    public let leaf: String
    public let qos: UInt8
    /// How many values until the simulator's sequence repeats: values are matched by order within that many.
    public let period: Int
    /// `gatt2mqtt-sim` arguments after the global options, for `rate` values a second from the device numbered
    /// `index` (1, 2, …).
    public let simulatorArguments: @Sendable (_ rate: Int, _ index: Int) -> [String]
    /// The sequence a notification the simulator sent carries; nil for one that is not the stream's.
    public let sequenceOfValue: @Sendable (_ value: [UInt8]) -> Int?
    /// The sequence a relay's payload carries; nil for one that is not the stream's.
    public let sequenceOfPayload: @Sendable (_ payload: String) -> Int?
    /// The text the bridge publishes for a sequence, made with the least work (the floor relay's).
    public let payloadOfSequence: @Sendable (_ sequence: Int) -> String?
    /// A characteristic a relay writes the sample period to (int16 LE, ms) before it subscribes: the Activ5's;
    /// nil for a family whose simulator is told its rate.
    public var periodCharacteristic: String? = nil
    /// Commands gatt2mqtt is sent, once a device is ready, to start the stream at a period (ms); none for a
    /// family that streams while connected.
    public var startCommands: @Sendable (_ periodMilliseconds: Int16) -> [CommandExample] = { _ in [] }
    /// Commands that stop the stream through gatt2mqtt; none for a family that streams while connected.
    public var stopCommands: [CommandExample] = []
    /// The leaf whose message says a device is ready under gatt2mqtt, and its payload (nil: any but empty).
    public var readyLeaf = "connection"
    public var readyPayload: String? = "connected"

    init(
        family: DeviceFamily, name: String, characteristic: String, leaf: String, qos: UInt8, period: Int,
        simulatorArguments: @escaping @Sendable (_ rate: Int, _ index: Int) -> [String],
        sequenceOfValue: @escaping @Sendable (_ value: [UInt8]) -> Int?,
        sequenceOfPayload: @escaping @Sendable (_ payload: String) -> Int?,
        payloadOfSequence: @escaping @Sendable (_ sequence: Int) -> String?
    ) {
        self.family = family
        self.name = name
        self.characteristic = characteristic
        self.leaf = leaf
        self.qos = qos
        self.period = period
        self.simulatorArguments = simulatorArguments
        self.sequenceOfValue = sequenceOfValue
        self.sequenceOfPayload = sequenceOfPayload
        self.payloadOfSequence = payloadOfSequence
    }

    /// What the floor relay publishes for a value: the bridge's text for its sequence.
    public func floorPayload(_ value: [UInt8]) -> String? { sequenceOfValue(value).flatMap(payloadOfSequence) }

    /// Every written family's stream, in the registry's order, then the declared ones the benchmark drives.
    public static let all: [FamilyStream] = FamilyRegistry.drivers.map { $0.stream } + declared

    /// `prefix` and a four-digit number, a simulated device's name: `CPR-0007`.
    static func numberedName(_ prefix: String, _ index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(4 - digits.count, 0)) + digits
    }
}
