import Peripherals

/// What a CPR-Band's streams keep during one connection, and what each reading makes of it: peaks with the running
/// statistics, the averaged wrist angle, the mode (tracked from acknowledged writes: the band never reports it) and
/// the summary of a practice or evaluation when it ends. Pure: every payload is tested without a band.
struct CPRBandTelemetry: Sendable {
    let options: CPRBandOptions
    /// The band's mode, as the last acknowledged write left it; `unknown` until the connect's `F1` is.
    private(set) var mode = CPRBandMode.unknown
    private var angle: CPRBandAngleMovingAverage
    private var statistics: CompressionStatistics
    private var sessionStart: Double?

    init(options: CPRBandOptions) {
        self.options = options
        angle = CPRBandAngleMovingAverage(sampleCount: options.angleSamples)
        statistics = CompressionStatistics(windowSeconds: options.rateWindowSeconds, range: options.targetRange)
    }

    /// One compression: the peak in centimetres (QoS 1: each is a compression a trainer counts) and the running
    /// statistics.
    mutating func peak(_ depth: CPRBandDepth, at seconds: Double) -> [LeafOutput] {
        statistics.record(depth, at: seconds)
        let stats = Self.statsPayload(
            count: statistics.summary.count,
            inRangeShare: statistics.inRangeShare.map { ($0 * 1000).rounded() / 1000 },
            ratePerMinute: statistics.ratePerMinute(at: seconds).map { ($0 * 10).rounded() / 10 })
        return [
            .value("peak", FixedDecimals.text(depth.centimetres, places: 1), qos: 1),
            .value("stats", stats, qos: 0),
        ]
    }

    /// The JSON object of `count`, `in_range_share` and `rate_per_minute` (those known), byte for byte as `JSONValue`
    /// writes it (members in key order), written straight: it goes out with every compression.
    static func statsPayload(count: Int, inRangeShare: Double?, ratePerMinute: Double?) -> String {
        PayloadWriter.text(capacity: 160) { text in
            text.append("{\"count\":")
            text.append(JSONValue.number(Double(count)).text)
            if let inRangeShare {
                text.append(",\"in_range_share\":")
                text.append(JSONValue.number(inRangeShare).text)
            }
            if let ratePerMinute {
                text.append(",\"rate_per_minute\":")
                text.append(JSONValue.number(ratePerMinute).text)
            }
            text.append("}")
        }
    }

    mutating func angle(_ sample: CPRBandAngle) -> LeafOutput {
        .value("angle", String(angle.add(sample.degrees)), qos: 0)
    }

    func battery(_ level: CPRBandBatteryLevel) -> LeafOutput {
        var members: [String: JSONValue] = [
            "percent": .number((level.percent * 10).rounded() / 10), "raw": .number(Double(level.raw)),
        ]
        if let volts = level.volts { members["volts"] = .number((volts * 100).rounded() / 100) }
        return .state("battery", JSONValue.object(members).text)
    }

    /// RSSI and the distance it suggests.
    func signal(rssi: Int16, advertisedTxPower: Int16?) -> [LeafOutput] {
        var leaves: [LeafOutput] = [.value("rssi", String(rssi), qos: 0)]
        if let metres = options.distance.distanceMetres(
            rssi: Double(rssi), advertisedTxPowerDBm: advertisedTxPower.map(Double.init))
        {
            leaves.append(.value("distance", FixedDecimals.text(metres), qos: 0))
        }
        return leaves
    }

    /// The band is in `newMode` (`force`: say so even if it was already, after a sequence showed `sending`): a
    /// practice or evaluation that ends publishes its summary (retained).
    mutating func setMode(_ newMode: CPRBandMode, force: Bool = false, at seconds: Double) -> [LeafOutput] {
        guard newMode != mode || force else { return [] }
        let previous = mode
        mode = newMode
        var leaves: [LeafOutput] = [.state("mode", Self.name(of: newMode))]
        if newMode.isStreaming, !previous.isStreaming {
            sessionStart = seconds
            statistics = CompressionStatistics(
                windowSeconds: options.rateWindowSeconds, targetRange: statistics.targetRange)
            angle.reset()
        } else if previous.isStreaming, !newMode.isStreaming, sessionStart != nil {
            leaves.append(.state("session", summary(of: previous)))
            sessionStart = nil
        }
        return leaves
    }

    private func summary(of previous: CPRBandMode) -> String {
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
        if let mean = summary.meanDepthCentimetres { members["mean_depth_cm"] = .number((mean * 10).rounded() / 10) }
        if let rate = summary.averageRatePerMinute { members["rate_per_minute"] = .number((rate * 10).rounded() / 10) }
        return JSONValue.object(members).text
    }

    /// The band took a new range: statistics count against it from now on.
    mutating func rangeChanged(_ range: CPRBandDepthRange) {
        statistics = CompressionStatistics(windowSeconds: options.rateWindowSeconds, range: range)
    }

    /// While a range or name sequence is written the vendor's library reports `sending`.
    func sending() -> LeafOutput { .state("mode", "sending") }

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
