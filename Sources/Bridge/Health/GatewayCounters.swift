/// The gateway's counters at one moment, for `/metrics` and the health report: totals since the start,
/// never rates.
public struct GatewayCounters: Sendable, Equatable {
    /// Per device (`<family>/<id>`).
    public struct Device: Sendable, Equatable {
        public var notifications: Int
        public var decodeErrors: Int
        /// Links that came up after the first.
        public var reconnects: Int

        init(notifications: Int, decodeErrors: Int, reconnects: Int) {
            self.notifications = notifications
            self.decodeErrors = decodeErrors
            self.reconnects = reconnects
        }

        /// A session's counts: every connect after the first is a reconnect.
        init(_ counts: DeviceMetrics.Counters) {
            self.init(
                notifications: counts.notifications, decodeErrors: counts.decodeErrors,
                reconnects: max(counts.connects - 1, 0))
        }
    }

    public var messagesIn: Int
    public var messagesOut: Int
    public var brokerReconnects: Int
    public var droppedMessages: Int
    /// Incoming messages over `payload_size_limit`: commands and requests answered that they are too large, anything
    /// else dropped unread (and, with MQTT 3.1.1, anything beyond the packet limit).
    public var oversizedMessages = 0
    public var droppedNotifications: Int
    /// Fleet claims dropped: malformed, or naming another gateway than the topic they came on.
    public var refusedClaims = 0
    /// Sessions by connection state (`connected`, `connecting`, …).
    public var sessions: [String: Int]
    public var devices: [String: Device]
    public var residentBytes: Int?
    public var uptimeSeconds: Double
}
