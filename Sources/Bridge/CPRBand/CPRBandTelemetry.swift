import Peripherals

/// Turns band readings into publications: peaks, averaged angle, statistics and session summaries.
struct CPRBandTelemetry: Sendable {
    let id: String
    let topics: TopicMap
    let options: CPRBandOptions
    private var angle: CPRBandAngleMovingAverage
    private var statistics: CompressionStatistics
    private var sessionStart: Double?
    /// What was last published on each retained leaf.
    private var retained: RetainedLeaves

    init(id: String, topics: TopicMap, options: CPRBandOptions) {
        self.id = id
        self.topics = topics
        retained = RetainedLeaves(.cpr, id: id, topics: topics)
        self.options = options
        angle = CPRBandAngleMovingAverage(sampleCount: options.angleSamples)
        statistics = CompressionStatistics(windowSeconds: options.rateWindowSeconds, range: options.targetRange)
    }

    private func topic(_ leaf: String) -> String { topics.device(.cpr, id, leaf) }

    /// One compression: the peak in centimetres and the running statistics.
    mutating func peak(_ depth: CPRBandDepth, at seconds: Double) -> [Publication] {
        statistics.record(depth, at: seconds)
        var stats: [String: JSONValue] = ["count": .number(Double(statistics.summary.count))]
        if let rate = statistics.ratePerMinute(at: seconds) {
            stats["rate_per_minute"] = .number((rate * 10).rounded() / 10)
        }
        if let share = statistics.inRangeShare { stats["in_range_share"] = .number((share * 1000).rounded() / 1000) }
        return [
            Publication(topic: topic("peak"), payload: FixedDecimals.text(depth.centimetres, places: 1), qos: 1),
            Publication(topic: topic("stats"), payload: JSONValue.object(stats).text),
        ]
    }

    mutating func angle(_ sample: CPRBandAngle) -> Publication {
        Publication(topic: topic("angle"), payload: String(angle.add(sample.degrees)))
    }

    mutating func battery(_ level: CPRBandBatteryLevel) -> [Publication] {
        var members: [String: JSONValue] = [
            "percent": .number((level.percent * 10).rounded() / 10), "raw": .number(Double(level.raw)),
        ]
        if let volts = level.volts { members["volts"] = .number((volts * 100).rounded() / 100) }
        return retained.changed("battery", JSONValue.object(members).text)
    }

    /// RSSI and the distance it suggests.
    func signal(rssi: Int16, advertisedTxPower: Int16?) -> [Publication] {
        var publications = [Publication(topic: topic("rssi"), payload: String(rssi))]
        if let metres = options.distance.distanceMetres(
            rssi: Double(rssi), advertisedTxPowerDBm: advertisedTxPower.map(Double.init))
        {
            publications.append(Publication(topic: topic("distance"), payload: FixedDecimals.text(metres)))
        }
        return publications
    }

    /// The mode changed: a practice or evaluation that ends publishes its summary (retained).
    mutating func mode(_ mode: CPRBandMode, from previous: CPRBandMode, at seconds: Double) -> [Publication] {
        var publications = retained.changed("mode", Self.name(of: mode))
        if mode.isStreaming, !previous.isStreaming {
            sessionStart = seconds
            statistics = CompressionStatistics(
                windowSeconds: options.rateWindowSeconds, targetRange: statistics.targetRange)
            angle.reset()
        } else if previous.isStreaming, !mode.isStreaming, sessionStart != nil {
            let summary = statistics.summary
            var members: [String: JSONValue] = [
                "kind": .string(previous == .evaluating ? "evaluation" : "practice"),
                "count": .number(Double(summary.count)), "in_range": .number(Double(summary.inRangeCount)),
                "too_shallow": .number(Double(summary.tooShallowCount)),
                "too_deep": .number(Double(summary.tooDeepCount)),
                "duration_s": .number((summary.durationSeconds * 10).rounded() / 10),
                "range_mm": .array([
                    .number(Double(statistics.targetRange.lowerBound)),
                    .number(Double(statistics.targetRange.upperBound)),
                ]),
            ]
            if let share = summary.inRangeShare { members["in_range_share"] = .number((share * 1000).rounded() / 1000) }
            if let mean = summary.meanDepthCentimetres {
                members["mean_depth_cm"] = .number((mean * 10).rounded() / 10)
            }
            if let rate = summary.averageRatePerMinute {
                members["rate_per_minute"] = .number((rate * 10).rounded() / 10)
            }
            publications.append(.state(topic("session"), JSONValue.object(members).text))
            sessionStart = nil
        }
        return publications
    }

    /// The band took a new range: statistics count against it from now on.
    mutating func rangeChanged(_ range: CPRBandDepthRange) {
        statistics = CompressionStatistics(windowSeconds: options.rateWindowSeconds, range: range)
    }

    mutating func reset() {
        retained.forgetAll()
        angle.reset()
    }

    mutating func info(_ members: [String: JSONValue]) -> [Publication] {
        retained.changed("info", JSONValue.object(members).text)
    }

    /// While a range or name sequence is written the vendor's library reports `sending`.
    mutating func sending() -> [Publication] { retained.changed("mode", "sending") }

    /// The mode names of topics.md.
    static func name(of mode: CPRBandMode) -> String {
        switch mode {
        case .unknown, .off: "unknown"
        case .ready: "ready"
        case .practicing: "practicing"
        case .evaluating: "evaluating"
        }
    }
}
