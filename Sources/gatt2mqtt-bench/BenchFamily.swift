import ArgumentParser
import Bridge
import Peripherals

/// A device family's main stream as the benchmark drives and matches it: the family's own declaration
/// (`FamilyStream`, in `Bridge/<Family>/<Family>Stream.swift`), read from the registry, so that a family added
/// there is in the benchmark without a line here (gatt2mqtt-sim's `--help` documents each sequence).
struct BenchFamily: Sendable, Equatable, Codable, ExpressibleByArgument {
    let stream: FamilyStream

    /// Every registered family, in the registry's order.
    static let allCases = FamilyStream.all.map(BenchFamily.init(stream:))

    /// The Activ5, whose force stream the matrix measures (with its sample-period commands).
    static let activ5 = allCases.first { $0.stream.family == .a5 }!

    /// The families by name, for help texts: "belt, a5, cpr, grip, hr".
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    private init(stream: FamilyStream) { self.stream = stream }

    init?(rawValue: String) {
        guard let family = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = family
    }

    /// The family from a stream topic's leaf.
    init?(leaf: some StringProtocol) {
        guard let family = Self.allCases.first(where: { $0.leaf == leaf }) else { return nil }
        self = family
    }

    init?(argument: String) { self.init(rawValue: argument) }

    static var allValueStrings: [String] { allCases.map(\.rawValue) }

    init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let family = Self(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "no family \(name)"))
        }
        self = family
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    static func == (lhs: BenchFamily, rhs: BenchFamily) -> Bool { lhs.rawValue == rhs.rawValue }

    /// `<family>/<id>/…`: the family's name, the first level of the bridge's topics.
    var rawValue: String { stream.family.rawValue }

    /// `<family>/<id>/<leaf>`: the topic the bridge publishes the stream on (every relay uses the same leaf).
    var leaf: String { stream.leaf }

    /// The stream, in a report.
    var streamName: String { stream.name }

    /// The stream's characteristic (full UUID).
    var streamUUID: String { stream.characteristic }

    /// The sample period characteristic the relays write (the Activ5's); nil where the simulator is told its rate.
    var periodUUID: String? { stream.periodCharacteristic }

    /// The characteristic as the simulators' traffic logs name it (the 16-bit form on the Bluetooth base).
    var logName: String { BluetoothUUID.shortForm(streamUUID) }

    /// The QoS the bridge publishes the stream with.
    var qos: UInt8 { stream.qos }

    /// How many values until the sequence repeats: matching is by order within that many.
    var period: Int { stream.period }

    /// `gatt2mqtt-sim` arguments after the global options, for a stream of `rate` values a second per device.
    func simulatorArguments(rate: Int, name index: Int) -> [String] { stream.simulatorArguments(rate, index) }

    /// The sequence a notification the simulator sent carries.
    func sequence(sent value: [UInt8]) -> Int? { stream.sequenceOfValue(value) }

    /// The sequence a relay's payload carries; nil for one that is not the stream's.
    func sequence(payload text: String) -> Int? { stream.sequenceOfPayload(text) }

    /// What the floor relay publishes for a value: the same text as the bridge, made with the least work.
    func floorPayload(_ value: [UInt8]) -> String? { stream.floorPayload(value) }
}
