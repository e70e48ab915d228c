/// A change in the client's connection, in the order it happened.
public enum MQTTEvent: Sendable, Hashable {
    /// The broker accepted the connection (CONNACK success).
    case connected(sessionPresent: Bool)
    /// An established connection ended, or a connection attempt was refused.
    case disconnected(reason: String)
    /// The client waits `delay` before connection attempt number `attempt` (counted since the
    /// last successful connection).
    case reconnecting(attempt: Int, delay: Duration)
}

/// Counters since the client was created, for a health topic.
public struct MQTTStatistics: Sendable, Hashable {
    /// Messages delivered by the broker.
    public var messagesReceived: Int = 0
    /// Messages handed to the library for sending, replays of retained state included.
    public var messagesPublished: Int = 0
    /// Successful connections after the first one.
    public var reconnects: Int = 0
    /// Incoming messages dropped because the `messages` stream's buffer was full.
    public var droppedMessages: Int = 0
    /// Events dropped because the `events` stream's buffer was full.
    public var droppedEvents: Int = 0
    /// Incoming messages dropped unread because their payload exceeded `MQTTConfiguration.maximumPacketSize`.
    public var oversizedMessages: Int = 0

    /// Creates zeroed counters.
    public init() {}
}
