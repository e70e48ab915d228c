import Peripherals

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Activ5 readings into publications. Pure apart from the clock values it is given.
struct Activ5Telemetry: Sendable {
    let id: String
    let topics: TopicMap
    private var detector: DoubleSqueezeDetector
    /// What was last published on each retained leaf.
    private var retained: RetainedLeaves
    /// `a5/<id>/force`, written once: it is the topic of every force sample.
    private let forceTopic: String

    init(id: String, topics: TopicMap, thresholds: DoubleSqueezeDetector.Thresholds) {
        self.id = id
        self.topics = topics
        retained = RetainedLeaves(.a5, id: id, topics: topics)
        detector = DoubleSqueezeDetector(thresholds: thresholds)
        forceTopic = topics.device(.a5, id, "force")
    }

    private func topic(_ leaf: String) -> String { topics.device(.a5, id, leaf) }

    /// A force sample (already tared): the value, and the squeeze state machine of activ5.md §7.
    mutating func force(newtons: Double, at seconds: Double) -> [Publication] {
        var publications = [Publication(topic: forceTopic, payload: FixedDecimals.text(newtons))]
        for event in detector.feed(newtons: newtons, at: seconds) {
            switch event {
            case .squeezed: publications += retained.changed("squeeze", "squeezed")
            case .released: publications += retained.changed("squeeze", "released")
            case .doubleSqueeze:
                publications.append(Publication(topic: topic("event"), payload: "doubleSqueeze", qos: 1))
            }
        }
        return publications
    }

    func imu(_ sample: Activ5IMUSample) -> Publication {
        func vector(_ v: Activ5Vector3) -> JSONValue {
            .object([
                "x": .number(Self.rounded(v.x, 4)), "y": .number(Self.rounded(v.y, 4)),
                "z": .number(Self.rounded(v.z, 4)),
            ])
        }
        let payload = JSONValue.object([
            "acceleration_g": vector(sample.acceleration), "angular_velocity_rad_s": vector(sample.angularVelocity),
            "timestamp_s": .number(Self.rounded(sample.timestampSeconds, 5)),
        ])
        return Publication(topic: topic("imu"), payload: payload.text)
    }

    mutating func streaming(_ on: Bool) -> [Publication] { retained.changed("state", on ? "isometric" : "stopped") }

    mutating func battery(level: UInt8?, status: String?) -> [Publication] {
        var members: [String: JSONValue] = [:]
        if let level { members["level"] = .number(Double(level)) }
        if let status { members["status"] = .string(status) }
        return members.isEmpty ? [] : retained.changed("battery", JSONValue.object(members).text)
    }

    mutating func info(_ members: [String: JSONValue]) -> [Publication] {
        retained.changed("info", JSONValue.object(members).text)
    }

    /// Forgets what was published, so that it is sent again after a reconnect; squeeze starts released.
    mutating func reset(thresholds: DoubleSqueezeDetector.Thresholds) {
        retained.forgetAll()
        detector = DoubleSqueezeDetector(thresholds: thresholds)
    }

    private static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
