/// One message the bridge wants on the broker.
public struct Publication: Sendable, Equatable {
    public var topic: String
    public var payload: String
    public var retain: Bool
    /// State (retained) goes at QoS 1 so it is not lost; fast telemetry at QoS 0.
    public var qos: Int

    public init(topic: String, payload: String, retain: Bool = false, qos: Int = 0) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.qos = qos
    }

    public static func state(_ topic: String, _ payload: String) -> Publication {
        Publication(topic: topic, payload: payload, retain: true, qos: 1)
    }
}
