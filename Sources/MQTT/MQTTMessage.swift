/// The delivery guarantee of one message or subscription.
public enum MQTTQoS: Int, Sendable, Hashable, CaseIterable {
    /// At most once: fire and forget.
    case atMostOnce = 0
    /// At least once: acknowledged, may be duplicated.
    case atLeastOnce = 1
    /// Exactly once: a four-step handshake.
    case exactlyOnce = 2
}

/// One MQTT 5 user property: a name/value pair that may repeat, in order.
public struct MQTTUserProperty: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// The property's value.
    public var value: String

    /// Creates a user property.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A message that is published or was received, with the MQTT 5 properties the bridge uses.
///
/// With MQTT 3.1.1 the properties cannot travel: they are dropped when publishing and are
/// always empty when receiving.
public struct MQTTMessage: Sendable, Hashable {
    /// The topic name (no wildcards).
    public var topic: String
    /// The raw payload.
    public var payload: [UInt8]
    /// The quality of service it is (or was) sent with.
    public var qos: MQTTQoS
    /// Whether the broker keeps it as the topic's retained message.
    public var retain: Bool
    /// MQTT 5 response topic, for request/response.
    public var responseTopic: String?
    /// MQTT 5 correlation data, echoed back in a response.
    public var correlationData: [UInt8]?
    /// MQTT 5 message expiry interval in seconds; on receipt, what is left of it.
    public var messageExpiry: UInt32?
    /// MQTT 5 user properties, in wire order.
    public var userProperties: [MQTTUserProperty]

    /// Whether it carries any MQTT 5 property.
    var hasProperties: Bool {
        responseTopic != nil || correlationData != nil || messageExpiry != nil || !userProperties.isEmpty
    }

    /// Creates a message with a binary payload.
    public init(
        topic: String,
        payload: [UInt8],
        qos: MQTTQoS = .atMostOnce,
        retain: Bool = false,
        responseTopic: String? = nil,
        correlationData: [UInt8]? = nil,
        messageExpiry: UInt32? = nil,
        userProperties: [MQTTUserProperty] = []
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.responseTopic = responseTopic
        self.correlationData = correlationData
        self.messageExpiry = messageExpiry
        self.userProperties = userProperties
    }

    /// Creates a message whose payload is the UTF-8 encoding of `string`.
    public init(
        topic: String,
        string: String,
        qos: MQTTQoS = .atMostOnce,
        retain: Bool = false,
        responseTopic: String? = nil,
        correlationData: [UInt8]? = nil,
        messageExpiry: UInt32? = nil,
        userProperties: [MQTTUserProperty] = []
    ) {
        self.init(
            topic: topic, payload: Array(string.utf8), qos: qos, retain: retain,
            responseTopic: responseTopic, correlationData: correlationData,
            messageExpiry: messageExpiry, userProperties: userProperties)
    }

    /// The payload decoded as UTF-8, or nil when it is not valid UTF-8.
    public var payloadString: String? {
        String(validating: payload, as: UTF8.self)
    }
}
