/// An MQTT topic filter as a broker reads it (`+` one level, a last `#` the rest), compared byte by byte as
/// `TopicMap` compares topics.
public struct TopicFilter: Sendable, Equatable, CustomStringConvertible {
    public let text: String
    private let levels: [Substring]

    /// Nil for text no broker takes as a filter: empty, a wildcard inside a level, `#` before the last level, or NUL.
    public init?(_ text: String) {
        let levels = TopicMap.levels(Substring(text))
        guard !text.isEmpty, !text.utf8.contains(0) else { return nil }
        let wildcardInALevel = levels.contains { level in
            level != "+" && level != "#" && level.utf8.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") }
        }
        guard !wildcardInALevel, !levels.dropLast().contains("#") else { return nil }
        self.text = text
        self.levels = levels
    }

    public var description: String { text }

    /// Whether a message on `topic` reaches this filter; a wildcard first level takes no `$` topic.
    public func matches(_ topic: String) -> Bool {
        let topicLevels = TopicMap.levels(Substring(topic))
        if topic.utf8.first == UInt8(ascii: "$"), levels.first == "+" || levels.first == "#" { return false }
        for (index, level) in levels.enumerated() {
            if level == "#" { return true }
            guard index < topicLevels.count else { return false }
            if level != "+" && !level.utf8.elementsEqual(topicLevels[index].utf8) { return false }
        }
        return levels.count == topicLevels.count
    }
}
