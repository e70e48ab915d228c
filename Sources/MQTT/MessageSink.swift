/// Where published messages go: the broker (`MQTTClient`), or a record in memory for code under test.
public protocol MessageSink: Sendable {
    func publish(_ message: MQTTMessage) throws
    /// A stream's value: not retained, no properties. By default the message is made and published.
    func publishValue(topic: String, payload: String, qos: MQTTQoS) throws
}

extension MessageSink {
    public func publishValue(topic: String, payload: String, qos: MQTTQoS) throws {
        try publish(MQTTMessage(topic: topic, string: payload, qos: qos, retain: false))
    }
}

extension MQTTClient: MessageSink {}
