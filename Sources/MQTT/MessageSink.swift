/// Where published messages go: the broker (`MQTTClient`), or a record in memory for code under test.
public protocol MessageSink: Sendable {
    func publish(_ message: MQTTMessage) throws
    /// A stream's value: not retained, no properties. By default the message is made and published.
    func publishValue(topic: String, payload: String, qos: MQTTQoS) throws
    /// Publishes what `body` publishes together where the sink can (one TCP segment for the broker); by default it
    /// just runs `body`.
    func together(_ body: () -> Void)
}

extension MessageSink {
    public func publishValue(topic: String, payload: String, qos: MQTTQoS) throws {
        try publish(MQTTMessage(topic: topic, string: payload, qos: qos, retain: false))
    }

    public func together(_ body: () -> Void) { body() }
}

extension MQTTClient: MessageSink {}
