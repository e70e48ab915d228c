import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One line on `gatt2mqtt/<gateway>/log`, as it waits to be published.
struct LogTopicLine: Sendable, Equatable {
    var level: Logger.Level
    /// The logger's label (`gatt2mqtt`, `gatt2mqtt.bluez`, …).
    var label: String
    var message: String
    var metadata: [String: String]
    /// When it was logged; published as `last_seen` is (ISO 8601 in UTC to the second).
    var time: Date
    /// Lines of its level left out since the last one published (by the rate limit, a full queue or an absent
    /// broker): said by this line, as the journal's next warning says `suppressed=`.
    var dropped = 0

    /// The payload: JSON with sorted keys; `dropped` only when lines were left out, `metadata` always (`{}` for none).
    /// The text was escaped when the line was taken (`LogRecord`), so a value holds no control character.
    var json: String {
        var members: [String: JSONValue] = [
            "level": .string(level.rawValue), "label": .string(label), "message": .string(message),
            "metadata": .object(metadata.mapValues(JSONValue.string)), "time": .string(SessionCore.timestamp(time)),
        ]
        if dropped > 0 { members["dropped"] = .number(Double(dropped)) }
        return JSONValue.object(members).text
    }
}
