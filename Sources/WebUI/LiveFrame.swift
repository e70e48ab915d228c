import Bridge

/// The JSON text frames the server sends a page (docs/live-page.md): `hello`, then one `message` per
/// topic it knows, then live `message`s; `reply` and `error` answer the page's own frames.
enum LiveFrame {
    static func hello(
        baseTopic: String, catalogue: [DeviceFamily: [CommandExample]], cards: [DeviceFamily: LivePageCard]
    ) -> String {
        let families = Dictionary(
            uniqueKeysWithValues: catalogue.map { family, examples in
                (
                    family.rawValue,
                    JSONValue.array(
                        examples.map { .object(["command": .string($0.command), "example": .string($0.payload)]) })
                )
            })
        let requests: [JSONValue] = PageRequest.requestNames.map { name in
            var entry: [String: JSONValue] = [
                "request": .string(name),
                "needs_address": .bool(["connect", "disconnect", "pair", "forget", "rename"].contains(name)),
            ]
            if let example = requestExamples[name] { entry["example"] = .string(example) }
            return .object(entry)
        }
        return frame([
            "type": .string("hello"), "version": .string(Gatt2MQTTVersion.current), "base_topic": .string(baseTopic),
            "catalogue": .object(families), "requests": .array(requests),
            "families": .object(Dictionary(uniqueKeysWithValues: cards.map { ($0.key.rawValue, $0.value.json) })),
        ])
    }

    /// A working payload for the requests that take no address (topics.md, Requests).
    static let requestExamples = [
        "scan": #"{"duration_s":10}"#, "devices": "{}", "permit_join": #"{"duration_s":254}"#, "restart": "{}",
        "options": #"{"options":{"log_level":"debug"}}"#,
    ]

    static func message(_ entry: TopicMirror.Entry) -> String {
        frame([
            "type": .string("message"), "topic": .string(entry.topic), "payload": .string(entry.payload),
            "retained": .bool(entry.retained),
        ])
    }

    static func reply(id: Int, topic: String, payload: String) -> String {
        frame([
            "type": .string("reply"), "id": .number(Double(id)), "topic": .string(topic), "payload": .string(payload),
        ])
    }

    static func error(id: Int?, message: String) -> String {
        var members: [String: JSONValue] = ["type": .string("error"), "message": .string(message)]
        if let id { members["id"] = .number(Double(id)) }
        return frame(members)
    }

    /// Compact, keys sorted, slashes as they are (JSONValue's text).
    private static func frame(_ members: [String: JSONValue]) -> String {
        JSONValue.object(members).text
    }
}
