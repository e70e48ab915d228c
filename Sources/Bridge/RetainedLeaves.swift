/// What a device last published on each of its retained leaves (`<family>/<id>/<leaf>`), so that state
/// that did not change is not sent again: keep-alives, periodic reads and repeated notifications say the
/// same thing every few seconds. Every family's telemetry keeps one.
struct RetainedLeaves: Sendable {
    let family: DeviceFamily
    let id: String
    let topics: TopicMap
    private var last: [String: String] = [:]

    init(_ family: DeviceFamily, id: String, topics: TopicMap) {
        self.family = family
        self.id = id
        self.topics = topics
    }

    /// The retained publication of `payload` on `leaf` if it differs from the last one there; none otherwise.
    mutating func changed(_ leaf: String, _ payload: String) -> [Publication] {
        guard last[leaf] != payload else { return [] }
        last[leaf] = payload
        return [.state(topics.device(family, id, leaf), payload)]
    }

    /// Forgets every leaf (after a reconnect everything is published again).
    mutating func forgetAll() { last = [:] }

    /// Forgets `leaves` only: the live state cleared when the link ends.
    mutating func forget(_ leaves: Set<String>) { last = last.filter { !leaves.contains($0.key) } }
}
