import MQTT

import struct Synchronization.Atomic

/// The receive path: every message from the broker, to the feature whose route takes it. Nothing larger than
/// `payload_size_limit` is parsed: commands and requests are answered that they are too large (`CommandPayload`);
/// anything else (a claim, `desired`, `info`, a followed leaf) is dropped here, and counted. The echo of a retained
/// command or request the gateway cleared is dropped here too (`RetainedClearings`).
final class ReceivePath: Sendable {
    let context: GatewayContext
    /// Every feature's route, in the order a message is offered to them.
    let routes: [BrokerRoute]
    /// Messages dropped for their size.
    let oversizedMessages = Atomic<Int>(0)

    init(context: GatewayContext, routes: [BrokerRoute]) {
        self.context = context
        self.routes = routes
    }

    func run() async {
        let topics = context.topics
        for await message in context.mqtt.messages {
            // The broker's echo of a retained command or request the gateway cleared: not a new one (`{}`).
            if message.payload.isEmpty, context.publisher.clearings.takeEcho(message.topic) { continue }
            if message.payload.count > context.configuration.payloadSizeLimit,
                topics.parseCommand(message.topic) == nil, topics.parseRequest(message.topic) == nil
            {
                oversizedMessages.add(1, ordering: .relaxed)
                context.warn(
                    "message ignored: larger than payload_size_limit", kind: "oversized",
                    metadata: ["topic": "\(message.topic.prefix(200))", "bytes": "\(message.payload.count)"])
                continue
            }
            _ = BrokerRoute.deliver(message, to: routes)
        }
    }
}
