import Peripherals

/// Turns belt notifications into publications. Pure; remembers only what it needs to publish state
/// when it changes (the keep-alive repeats the mode every few seconds).
public struct BeltTelemetry: Sendable {
    public let id: String
    public let topics: TopicMap
    public private(set) var mode: BeltMode?
    /// What was last published on each retained leaf.
    private var retained: RetainedLeaves
    let orientationTopics: BeltOrientationTopics

    public init(id: String, topics: TopicMap) {
        self.id = id
        self.topics = topics
        retained = RetainedLeaves(.belt, id: id, topics: topics)
        orientationTopics = BeltOrientationTopics(id: id, topics: topics)
    }

    private func topic(_ leaf: String) -> String { topics.device(.belt, id, leaf) }

    public mutating func publications(for notification: BeltNotification) -> [Publication] {
        switch notification {
        case .orientation(let orientation):
            return orientationTopics.publications(for: orientation)
        case .keepAlive(let mode), .parameter(.mode(let mode)):
            return modeChanged(to: mode)
        case .button(let event):
            let press = Publication(
                topic: topic("button"),
                payload: JSONValue.object([
                    "button": .string(event.button.name), "press": .string(event.isLongPress ? "long" : "short"),
                    "previous_mode": .string(event.previousMode.name), "mode": .string(event.newMode.name),
                ]).text, qos: 1)
            return [press] + modeChanged(to: event.newMode)
        case .battery(let status):
            return retained.changed("battery", Self.batteryJSON(status).text)
        case .parameter(.defaultIntensity(let intensity)), .parameter(.advancedDefaultIntensity(let intensity)):
            return retained.changed("intensity", String(intensity))
        case .parameter(.headingOffset(let degrees)), .parameter(.advancedHeadingOffset(let degrees)):
            return retained.changed("heading_offset", String(degrees))
        case .parameter(.accuracySignal(let state)):
            return retained.changed(
                "compass_accuracy_signal",
                JSONValue.object([
                    "compass_mode": .bool(state.contains(.compassMode)), "app_mode": .bool(state.contains(.appMode)),
                ]).text)
        case .parameter, .firmware:
            return []
        }
    }

    /// The retained `info` (every device's `members`) once the handshake knows the firmware.
    public mutating func info(_ members: [String: JSONValue], firmware: BeltFirmwareInfo?) -> [Publication] {
        var members = members
        if let firmware { members["firmware"] = .number(Double(firmware.version)) }
        return retained.changed("info", JSONValue.object(members).text)
    }

    static func orientationJSON(_ orientation: BeltOrientation) -> JSONValue {
        .object([
            "belt_heading": .number(Double(wholeDegrees(orientation.beltHeading))),
            "box_heading": .number(Double(wholeDegrees(orientation.boxHeading))),
            "box_roll": .number(Double(orientation.boxRoll)),
            "box_pitch": .number(Double(orientation.boxPitch)),
            "accuracy": .number(Double(orientation.accuracy)),
            "magnetometer_status": .number(Double(orientation.magnetometerStatus)),
            "accelerometer_status": .number(Double(orientation.accelerometerStatus)),
            "gyroscope_status": .number(Double(orientation.gyroscopeStatus)),
            "fusion_status": .number(Double(orientation.fusionStatus)),
            "inaccurate": .bool(orientation.isInaccurate),
        ])
    }

    /// Level in percent; the time field is time to full while charging and time to empty otherwise.
    static func batteryJSON(_ status: BeltBatteryStatus) -> JSONValue {
        var members: [String: JSONValue] = [
            "level": .number((status.levelPercent * 10).rounded() / 10), "power": .string(status.powerStatus.name),
        ]
        let seconds = JSONValue.number(status.timeSeconds.rounded())
        switch status.powerStatus {
        case .charging: members["time_to_full_s"] = seconds
        case .battery: members["time_to_empty_s"] = seconds
        default: break
        }
        return .object(members)
    }

    /// Forgets remembered state, so the next values are published again (after a reconnect).
    public mutating func reset() {
        mode = nil
        retained.forgetAll()
    }

    private mutating func modeChanged(to newMode: BeltMode) -> [Publication] {
        guard newMode != mode else { return [] }
        mode = newMode
        return [.state(topic("mode"), newMode.name)]
    }

    /// Headings are signed on the wire; publish them as 0–359.
    static func wholeDegrees(_ heading: Int16) -> Int {
        ((Int(heading) % 360) + 360) % 360
    }
}
