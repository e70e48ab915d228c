import Peripherals

#if canImport(Glibc)
    import Glibc
#endif

/// What an Activ5's streams keep during one connection, and what each value makes of it: force (tared, with the
/// squeeze state machine of activ5.md §7), IMU samples, the handshake's progress, and whether users have the force
/// and IMU streams on. Pure apart from the clock values it is given.
struct Activ5Telemetry: Sendable {
    var wireProtocol = Activ5Protocol.legacy
    var progress = Activ5HandshakeProgress(wireProtocol: .legacy)
    var streaming = false
    var imuOn = false
    var tare = ForceTare()
    /// The last raw force values (newtons before tare), for a software tare.
    private(set) var recentForces: [Double] = []
    private var detector: DoubleSqueezeDetector

    init(thresholds: DoubleSqueezeDetector.Thresholds) {
        detector = DoubleSqueezeDetector(thresholds: thresholds)
    }

    /// A force value or an IMU sample; nil for anything else (an answer of the handshake).
    mutating func take(_ notification: Activ5Notification, at seconds: Double) -> [LeafOutput]? {
        if case .imu(let sample) = notification { return [Self.imu(sample)] }
        guard let newtons = notification.newtons else { return nil }
        if recentForces.count == Self.samplesForTare { recentForces.removeFirst() }
        recentForces.append(newtons)
        return force(newtons: tare.corrected(newtons), at: seconds)
    }

    /// The samples a software tare averages.
    private static let samplesForTare = 5

    /// A force sample (already tared): the value, and the squeeze state machine of activ5.md §7.
    mutating func force(newtons: Double, at seconds: Double) -> [LeafOutput] {
        var leaves: [LeafOutput] = [.value("force", FixedDecimals.text(newtons), qos: 0)]
        for event in detector.feed(newtons: newtons, at: seconds) {
            switch event {
            case .squeezed: leaves.append(.state("squeeze", "squeezed"))
            case .released: leaves.append(.state("squeeze", "released"))
            case .doubleSqueeze: leaves.append(.value("event", "doubleSqueeze", qos: 1))
            }
        }
        return leaves
    }

    /// Streaming stopped: a software tare needs fresh samples.
    mutating func setStreaming(_ on: Bool) -> LeafOutput {
        streaming = on
        if !on { recentForces = [] }
        return .state("state", on ? "isometric" : "stopped")
    }

    /// Zeroes on the mean of the last samples; false when there is none.
    mutating func tareOnRecentSamples() -> Bool {
        guard let tare = ForceTare(averaging: recentForces) else { return false }
        self.tare = tare
        return true
    }

    static func imu(_ sample: Activ5IMUSample) -> LeafOutput {
        func vector(_ v: Activ5Vector3) -> JSONValue {
            .object([
                "x": .number(rounded(v.x, 4)), "y": .number(rounded(v.y, 4)), "z": .number(rounded(v.z, 4)),
            ])
        }
        let payload = JSONValue.object([
            "acceleration_g": vector(sample.acceleration), "angular_velocity_rad_s": vector(sample.angularVelocity),
            "timestamp_s": .number(rounded(sample.timestampSeconds, 5)),
        ])
        return .value("imu", payload.text, qos: 0)
    }

    static func battery(level: UInt8?, status: String?) -> [LeafOutput] {
        var members: [String: JSONValue] = [:]
        if let level { members["level"] = .number(Double(level)) }
        if let status { members["status"] = .string(status) }
        return members.isEmpty ? [] : [.state("battery", JSONValue.object(members).text)]
    }

    private static func rounded(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}
