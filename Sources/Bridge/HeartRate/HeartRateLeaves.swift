import Peripherals

/// What a heart rate sensor publishes, by leaf (topics.md, "Heart rate sensor"): pure, so that every payload is
/// tested byte for byte.
enum HeartRateLeaves {
    /// One measurement: its rate (QoS 0, one a second, like any stream), its RR intervals when it carries any, and
    /// as state the skin contact and the energy expended when it carries one.
    static func leaves(of measurement: HeartRateMeasurement) -> [LeafOutput] {
        var leaves: [LeafOutput] = [.value("bpm", String(measurement.beatsPerMinute), qos: 0)]
        if !measurement.rawRRIntervals.isEmpty {
            leaves.append(.value("rr", rrMilliseconds(measurement.rawRRIntervals), qos: 0))
        }
        leaves.append(.state("contact", name(of: measurement.contact)))
        if let energy = measurement.energyExpendedKilojoules { leaves.append(.state("energy", String(energy))) }
        return leaves
    }

    /// RR intervals (1/1024 s on the wire) as a JSON array of milliseconds with one decimal, oldest first.
    static func rrMilliseconds(_ raw: [UInt16]) -> String {
        let values = raw.map { JSONValue.number((Double($0) * 10_000 / 1024).rounded() / 10) }
        return JSONValue.array(values).text
    }

    /// `detected`, `not_detected`, or `unsupported` for a strap that cannot tell (never "off the skin").
    static func name(of contact: HeartRateSensorContact) -> String {
        switch contact {
        case .detected: "detected"
        case .notDetected: "not_detected"
        case .notSupported: "unsupported"
        }
    }

    /// The place as the specification names it, in snake case; a reserved value as `reserved_<n>`.
    static func name(of location: HeartRateBodySensorLocation) -> String {
        switch location {
        case .other: "other"
        case .chest: "chest"
        case .wrist: "wrist"
        case .finger: "finger"
        case .hand: "hand"
        case .earLobe: "ear_lobe"
        case .foot: "foot"
        case .reserved(let byte): "reserved_\(byte)"
        }
    }
}
