/// Where the gateway answers a command or a request that names an MQTT 5 response topic. The answer goes out with
/// the gateway's own broker rights, so a stranger who names `cmnd/plug/POWER` must not make the gateway write
/// there: only topics kept for answers are taken, and any other answer goes to the default reply topic.
///
/// The space: the gateway's own reply topics (`<family>/+/reply` of every family it serves, declared ones too, `gatt2mqtt/<gateway>/response/+`, and every
/// live page's `gatt2mqtt/+/live/+/reply`, under the base topic), and the filters of `broker.reply_topics`
/// (`reply/#` by default), taken as written. Never, whatever those say: a topic no client may publish to, a `$`
/// topic, Home Assistant's discovery topics, or a gateway's or device's topic other than a reply.
public struct ReplySpace: Sendable {
    /// `broker.reply_topics` when it is not set.
    public static let defaultFilters = [TopicFilter("reply/#")!]

    /// Why a response topic was not taken.
    public enum Refusal: String, Sendable {
        case malformed = "not a topic to publish on: empty, longer than 1024 bytes, a wildcard, NUL or an empty level"
        case readAsState = "a topic others read as state"
        case outside = "outside the reply space (broker.reply_topics)"
    }

    private let topics: TopicMap
    private let discoveryPrefix: String
    private let filters: [TopicFilter]

    public init(
        topics: TopicMap, discoveryPrefix: String = HomeAssistantOptions().discoveryPrefix,
        filters: [TopicFilter] = defaultFilters
    ) {
        self.topics = topics
        self.discoveryPrefix = discoveryPrefix
        let base = topics.baseTopic.isEmpty ? "" : topics.baseTopic + "/"
        let own =
            topics.families.map { "\(base)\($0.rawValue)/+/reply" }
            + [topics.response("+"), "\(base)gatt2mqtt/+/live/+/reply"]
        self.filters = own.compactMap(TopicFilter.init) + filters
    }

    /// Nil when the gateway may answer on `topic`, else why not.
    public func refusal(of topic: String) -> Refusal? {
        guard Self.isPublishable(topic) else { return .malformed }
        guard !readAsState(topic) else { return .readAsState }
        return filters.contains { $0.matches(topic) } ? nil : .outside
    }

    /// A topic a client may publish on, without the empty levels no answer needs.
    private static func isPublishable(_ topic: String) -> Bool {
        topic.utf8.count <= 1024 && TopicMap.isPlainTopic(topic)
    }

    /// Home Assistant's discovery topics, or one of gatt2mqtt's own but a reply (statuses, claims, health, a device's
    /// state).
    private func readAsState(_ topic: String) -> Bool {
        if topic.utf8.starts(with: (discoveryPrefix + "/").utf8) { return true }
        guard let rest = topics.withoutBase(topic) else { return false }
        let levels = TopicMap.levels(Substring(rest))
        guard let first = levels.first, first == "gatt2mqtt" || topics.family(named: first) != nil else {
            return false
        }
        return levels.last != "reply" && !(levels.count == 4 && levels[0] == "gatt2mqtt" && levels[2] == "response")
    }
}
