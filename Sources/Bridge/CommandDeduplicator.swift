/// Remembers recent commands by their caller-given identity (`transaction`, or MQTT 5 correlation data),
/// so that a QoS 1 redelivery (the broker resends what it is not sure arrived, e.g. around a broker
/// restart) is executed once. Commands without an identity cannot be told apart from a repeat and run
/// every time they arrive.
struct CommandDeduplicator: Sendable {
    /// How long an identity is remembered.
    var window: Duration = .seconds(600)
    /// The most identities remembered; the oldest go first.
    var capacity = 10_000
    private var seen: [String: ContinuousClock.Instant] = [:]
    private var order: [String] = []

    init(window: Duration = .seconds(600), capacity: Int = 10_000) {
        self.window = window
        self.capacity = capacity
    }

    /// Records `key` and tells whether it was already seen within the window.
    mutating func isRepeat(_ key: String, at now: ContinuousClock.Instant) -> Bool {
        if let first = seen[key], now - first < window { return true }
        seen[key] = now
        order.append(key)
        while order.count > capacity || (order.first.flatMap { seen[$0] }.map { now - $0 >= window } ?? false) {
            seen.removeValue(forKey: order.removeFirst())
        }
        return false
    }

    /// The identity of a command: its topic and its transaction or correlation data; nil when it has neither.
    static func key(topic: String, transaction: JSONValue?, correlationData: [UInt8]?) -> String? {
        if let transaction { return topic + "\u{0}t" + transaction.text }
        if let correlationData, !correlationData.isEmpty { return topic + "\u{0}c" + correlationData.map(String.init).joined(separator: ",") }
        return nil
    }
}
