import Bridge
import Foundation

/// The JSON text frames the server sends a page (docs/live-page.md): `hello`, then one `message` per
/// topic it knows, then live `message`s; `reply` and `error` answer the page's own frames.
enum LiveFrame {
    static func hello(baseTopic: String, catalogue: [DeviceFamily: [CommandExample]]) -> String {
        let families = Dictionary(uniqueKeysWithValues: catalogue.map { family, examples in
            (family.rawValue, examples.map { ["command": $0.command, "example": $0.payload] })
        })
        let requests: [[String: Any]] = PageRequest.requestNames.map { name in
            var entry: [String: Any] = ["request": name, "needs_address": !["scan", "devices"].contains(name)]
            if name == "scan" { entry["example"] = #"{"duration_s":10}"# }
            if name == "devices" { entry["example"] = "{}" }
            return entry
        }
        return encode(["type": "hello", "base_topic": baseTopic, "catalogue": families, "requests": requests])
    }

    static func message(_ entry: TopicMirror.Entry) -> String {
        encode(["type": "message", "topic": entry.topic, "payload": entry.payload, "retained": entry.retained])
    }

    static func reply(id: Int, topic: String, payload: String) -> String {
        encode(["type": "reply", "id": id, "topic": topic, "payload": payload])
    }

    static func error(id: Int?, message: String) -> String {
        var object: [String: Any] = ["type": "error", "message": message]
        if let id { object["id"] = id }
        return encode(object)
    }

    private static func encode(_ object: [String: Any]) -> String {
        // Only strings, numbers, booleans, arrays and objects go in: serialising cannot fail.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
