import Peripherals

/// A device family's main stream as the benchmark drives and matches it: how its simulator streams a
/// sequence the benchmark can tell apart, which characteristic carries it, and how a relay's payload
/// maps back to the sequence (gatt2mqtt-sim's `--help` documents each sequence).
enum BenchFamily: String, CaseIterable, Codable, Sendable {
    case belt, a5, cpr, grip

    /// `<family>/<id>/<leaf>`: the topic the bridge publishes the stream on (every relay uses the same leaf).
    var leaf: String {
        switch self {
        case .belt: "heading"
        case .a5: "force"
        case .cpr: "peak"
        case .grip: "event"
        }
    }

    /// The family from a stream topic's leaf.
    init?(leaf: some StringProtocol) {
        guard let family = Self.allCases.first(where: { $0.leaf == leaf }) else { return nil }
        self = family
    }

    /// The stream, in a report.
    var streamName: String {
        switch self {
        case .belt: "belt headings"
        case .a5: "Activ5 force"
        case .cpr: "CPR-band peaks"
        case .grip: "grip events"
        }
    }

    /// The stream's characteristic (full UUID).
    var streamUUID: String {
        switch self {
        case .belt: BeltGATT.Characteristic.orientation
        case .a5: Activ5GATT.Characteristic.force
        case .cpr: CPRBandGATT.Characteristic.depth
        case .grip: GripProfile.placeholder.eventCharacteristicUUID
        }
    }

    /// The Activ5's sample period (F0FA), which the relays write; the other families' simulators are told their rate.
    var periodUUID: String? { self == .a5 ? Activ5GATT.Characteristic.samplePeriod : nil }

    /// The characteristic as the simulators' traffic logs name it (the 16-bit form on the Bluetooth base).
    var logName: String { BluetoothUUID.shortForm(streamUUID) }

    /// The QoS the bridge publishes the stream with: events and peaks are not to be lost, samples are.
    var qos: UInt8 { self == .cpr || self == .grip ? 1 : 0 }

    /// How many values until the sequence repeats: matching is by order within that many.
    var period: Int {
        switch self {
        case .belt: 360
        case .a5: Int(Int16.max)
        case .cpr: 255
        case .grip: GripEvent.allCases.count
        }
    }

    /// `gatt2mqtt-sim` arguments after the global options, for a stream of `rate` values a second per device.
    func simulatorArguments(rate: Int, name index: Int) -> [String] {
        switch self {
        case .belt:
            [
                "belt", "--sequence-heading", "--orientation-period-ms", "\(max(1000 / rate, 1))",
                "--minimum-orientation-period-ms", "1",
                "--name", String(format: "naviGuertel-%04d", index),
            ]
        case .a5:
            [
                "a5", "--sequence-force", "--minimum-period-ms", "1", "--power-off-seconds", "86400", "--name",
                String(format: "ACTIV5-BE-%04d", index),
            ]
        case .cpr:
            ["cpr", "--sequence-peaks", "--peaks-per-second", "\(rate)", "--name", String(format: "CPR-%04d", index)]
        case .grip:
            ["grip", "--events-per-second", "\(rate)", "--no-pairing"]
        }
    }

    /// The sequence a notification the simulator sent carries.
    func sequence(sent value: [UInt8]) -> Int? {
        switch self {
        case .belt: value.count >= 3 ? Int(Int16(bitPattern: UInt16(value[1]) | UInt16(value[2]) << 8)) : nil
        case .a5: value.count >= 2 ? Int(Int16(bitPattern: UInt16(value[0]) | UInt16(value[1]) << 8)) : nil
        case .cpr, .grip: value.first.map(Int.init)
        }
    }

    /// The sequence a relay's payload carries; nil for one that is not the stream's.
    func sequence(payload text: String) -> Int? {
        switch self {
        case .belt: Int(text)
        case .a5: ForceSequence.sequence(fromPayload: text).map(Int.init)
        case .cpr: Double(text).map { Int(($0 * 10).rounded()) }
        case .grip: GripEvent(rawValue: text).flatMap { GripEvent.allCases.firstIndex(of: $0) }.map { $0 + 1 }
        }
    }

    /// What the floor relay publishes for a value: the same text as the bridge, made with the least work.
    func floorPayload(_ value: [UInt8]) -> String? {
        guard let sequence = sequence(sent: value) else { return nil }
        switch self {
        case .belt: return String(((sequence % 360) + 360) % 360)
        case .a5:
            let hundredths = Int((Double(sequence) * ForceSequence.newtonsPerCount * 100).rounded())
            let magnitude = abs(hundredths)
            let fraction = magnitude % 100
            return (hundredths < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
        case .cpr: return "\(sequence / 10).\(sequence % 10)"
        case .grip:
            let cycle = GripEvent.allCases
            return (1...cycle.count).contains(sequence)
                ? cycle[cycle.index(cycle.startIndex, offsetBy: sequence - 1)].rawValue : nil
        }
    }
}
