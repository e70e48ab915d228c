import DequeModule

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
    /// Every identity remembered, oldest first, with the instant it was recorded at. A key seen again after its
    /// window is recorded again at the back; its old entry, older than the window, leaves the front in the same
    /// call, and takes the key out of `seen` only if `seen` still has that old instant.
    private var order: Deque<(key: String, at: ContinuousClock.Instant)> = []

    init(window: Duration = .seconds(600), capacity: Int = 10_000) {
        self.window = window
        self.capacity = capacity
    }

    /// How many identities are remembered.
    var count: Int { seen.count }

    /// Records `key` and tells whether it was already seen within the window. O(1) amortised.
    mutating func isRepeat(_ key: String, at now: ContinuousClock.Instant) -> Bool {
        if let first = seen[key], now - first < window { return true }
        seen[key] = now
        order.append((key, now))
        while let oldest = order.first,
            seen.count > capacity || now - oldest.at >= window || seen[oldest.key] != oldest.at
        {
            order.removeFirst()
            if seen[oldest.key] == oldest.at { seen.removeValue(forKey: oldest.key) }
        }
        return false
    }

    /// The identity of a command: its topic and its transaction or correlation data; nil when it has neither.
    static func key(topic: String, transaction: JSONValue?, correlationData: [UInt8]?) -> String? {
        if let transaction { return topic + "\u{0}t" + transaction.text }
        if let correlationData, !correlationData.isEmpty {
            return topic + "\u{0}c" + correlationData.map(String.init).joined(separator: ",")
        }
        return nil
    }
}
