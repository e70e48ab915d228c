import Foundation

/// `gatt2mqtt/<gateway>/health`: one JSON report every interval. Pure: built from two snapshots.
struct HealthReport: Sendable {
    struct Snapshot: Sendable {
        var time: ContinuousClock.Instant
        var messagesIn: Int
        var messagesOut: Int
        var brokerReconnects: Int
        var droppedMessages = 0
        var droppedNotifications = 0
        var devices: [String: DeviceMetrics.Counters]
    }

    static func json(previous: Snapshot, current: Snapshot, uptime: Duration, residentBytes: Int?) -> JSONValue {
        let seconds = max((current.time - previous.time) / .seconds(1), 0.001)
        func rate(_ now: Int, _ before: Int) -> JSONValue { .number((Double(now - before) / seconds * 10).rounded() / 10) }
        var devices: [String: JSONValue] = [:]
        var decodeErrors = 0
        for (key, counters) in current.devices {
            let before = previous.devices[key] ?? DeviceMetrics.Counters()
            decodeErrors += counters.decodeErrors
            devices[key] = .object([
                "notifications_per_s": rate(counters.notifications, before.notifications),
                "decode_errors": .number(Double(counters.decodeErrors)),
                "reconnects": .number(Double(max(counters.connects - 1, 0))),
            ])
        }
        var members: [String: JSONValue] = [
            "uptime_s": .number((uptime / .seconds(1)).rounded()),
            "messages_in_per_s": rate(current.messagesIn, previous.messagesIn),
            "messages_out_per_s": rate(current.messagesOut, previous.messagesOut),
            "broker_reconnects": .number(Double(current.brokerReconnects)),
            "dropped_messages": .number(Double(current.droppedMessages)),
            "dropped_notifications": .number(Double(current.droppedNotifications)),
            "decode_errors": .number(Double(decodeErrors)),
            "devices": .object(devices),
        ]
        if let residentBytes { members["rss_bytes"] = .number(Double(residentBytes)) }
        return .object(members)
    }

    /// Resident set size from /proc/self/statm (second field, in pages).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
