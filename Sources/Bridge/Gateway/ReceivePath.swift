import MQTT

import struct Synchronization.Atomic

/// The receive path: every message from the broker, to the feature whose route takes it. Nothing larger than
/// `payload_size_limit` is parsed, and each such message is counted: commands and requests go on, to be answered
/// that they are too large (`CommandPayload`); anything else (a claim, `desired`, `info`, a followed leaf) is dropped
/// here. The echo of a retained command or request the gateway cleared is dropped here too (`RetainedClearings`).
final class ReceivePath: Sendable {
    let context: GatewayContext
    /// Every feature's route, in the order a message is offered to them.
    let routes: [BrokerRoute]
    /// Messages larger than `payload_size_limit`: dropped, or (commands and requests) answered that they are.
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
            if message.payload.count > context.configuration.payloadSizeLimit {
                oversizedMessages.add(1, ordering: .relaxed)
                // A command or request goes on, to be answered (and logged) as refused, as every refusal is.
                if topics.parseCommand(message.topic) == nil, topics.parseRequest(message.topic) == nil {
                    context.warn(
                        "message ignored: larger than payload_size_limit", kind: "oversized",
                        metadata: ["topic": "\(message.topic.prefix(200))", "bytes": "\(message.payload.count)"])
                    continue
                }
            }
            _ = BrokerRoute.deliver(message, to: routes)
        }
    }
}
