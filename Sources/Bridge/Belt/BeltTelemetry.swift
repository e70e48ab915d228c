import Peripherals

/// Turns belt notifications into publications. Pure; remembers only what it needs to publish state
/// when it changes (the keep-alive repeats the mode every few seconds).
public struct BeltTelemetry: Sendable {
    public let id: String
    public let topics: TopicMap
    public private(set) var mode: BeltMode?
    private var lastBattery: String?

    public init(id: String, topics: TopicMap) {
        self.id = id
        self.topics = topics
    }

    private func topic(_ leaf: String) -> String { topics.device(.belt, id, leaf) }

    public mutating func publications(for notification: BeltNotification) -> [Publication] {
        switch notification {
        case .orientation(let orientation):
            return [Publication(topic: topic("heading"), payload: String(Self.wholeDegrees(orientation.beltHeading)))]
        case .keepAlive(let mode), .parameter(.mode(let mode)):
            return modeChanged(to: mode)
        case .button(let event):
            return modeChanged(to: event.newMode)
        case .battery(let status):
            let payload = JSONValue.object([
                "level": .number((status.levelPercent * 10).rounded() / 10),
                "power": .string(status.powerStatus.name),
            ]).text
            guard payload != lastBattery else { return [] }
            lastBattery = payload
            return [.state(topic("battery"), payload)]
        case .parameter, .firmware:
            return []
        }
    }

    /// Forgets remembered state, so the next values are published again (after a reconnect).
    public mutating func reset() {
        mode = nil
        lastBattery = nil
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
