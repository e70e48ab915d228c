/// Where published messages go: the broker (`MQTTClient`), or a record in memory for code under test.
public protocol MessageSink: Sendable {
    func publish(_ message: MQTTMessage) throws
}

extension MQTTClient: MessageSink {}
