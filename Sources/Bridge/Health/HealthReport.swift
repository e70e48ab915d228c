#if canImport(Glibc)
    import Glibc
#endif

/// `gatt2mqtt/<gateway>/health`: one JSON report every interval. Pure: built from two readings of the
/// gateway's totals (the same `GatewayCounters` that `/metrics` shows).
struct HealthReport: Sendable {
    struct Snapshot: Sendable {
        var time: ContinuousClock.Instant
        var counters: GatewayCounters
    }

    static func json(previous: Snapshot, current: Snapshot) -> JSONValue {
        let (before, now) = (previous.counters, current.counters)
        let seconds = max((current.time - previous.time) / .seconds(1), 0.001)
        func rate(_ now: Int, _ before: Int) -> JSONValue {
            .number((Double(now - before) / seconds * 10).rounded() / 10)
        }
        var devices: [String: JSONValue] = [:]
        var decodeErrors = 0
        for (key, counters) in now.devices {
            let earlier = before.devices[key]?.notifications ?? 0
            decodeErrors += counters.decodeErrors
            devices[key] = .object([
                "notifications_per_s": rate(counters.notifications, earlier),
                "decode_errors": .number(Double(counters.decodeErrors)),
                "reconnects": .number(Double(counters.reconnects)),
            ])
        }
        var members: [String: JSONValue] = [
            "version": .string(Gatt2MQTTVersion.current),
            "uptime_s": .number(now.uptimeSeconds.rounded()),
            "messages_in_per_s": rate(now.messagesIn, before.messagesIn),
            "messages_out_per_s": rate(now.messagesOut, before.messagesOut),
            "broker_reconnects": .number(Double(now.brokerReconnects)),
            "dropped_messages": .number(Double(now.droppedMessages)),
            "oversized_messages": .number(Double(now.oversizedMessages)),
            "dropped_notifications": .number(Double(now.droppedNotifications)),
            "decode_errors": .number(Double(decodeErrors)),
            "refused_claims": .number(Double(now.refusedClaims)),
            "devices": .object(devices),
        ]
        if let residentBytes = now.residentBytes { members["rss_bytes"] = .number(Double(residentBytes)) }
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
