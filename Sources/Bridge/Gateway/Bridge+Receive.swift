import BlueZ
import Logging
import MQTT

extension Bridge {
    /// The receive path: every message from the broker, to the feature whose route takes it (`brokerRoutes`).
    func receiveCommands() async {
        let routes = brokerRoutes
        for await message in mqtt.messages {
            // Nothing larger than payload_size_limit is parsed: commands and requests are answered that they are too
            // large (CommandPayload); anything else (a claim, `desired`, `info`, a followed leaf) is dropped here.
            if message.payload.count > configuration.payloadSizeLimit,
                topics.parseCommand(message.topic) == nil, topics.parseRequest(message.topic) == nil
            {
                oversizedMessages.add(1, ordering: .relaxed)
                warn("message ignored: larger than payload_size_limit", kind: "oversized",
                     metadata: ["topic": "\(message.topic.prefix(200))", "bytes": "\(message.payload.count)"])
                continue
            }
            _ = BrokerRoute.deliver(message, to: routes)
        }
    }

    /// A warning another client on the broker can cause: written at most a few times a minute per kind, the next
    /// one saying how many were left out meanwhile.
    func warn(_ message: String, kind: String, metadata: Logger.Metadata) {
        warnings.warn(message, kind: kind, metadata: metadata, to: logger)
    }
}
