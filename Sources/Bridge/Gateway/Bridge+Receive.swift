import BlueZ
import Logging
import MQTT

extension Bridge {
    /// The receive path: every message from the broker, to the part of the gateway it is for.
    func receiveCommands() async {
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
            if receiveFleetMessage(message) { continue }
            if message.topic == topics.status {
                // Only the retained copy our subscription brings ends the leftovers: a persistent session may
                // first deliver what was queued for it, such as the crashed run's own will.
                if message.retain { leftoversRead.fire() }
            } else if message.topic == homeAssistant.statusTopic {
                if message.payloadString == "online" { homeAssistant.announceAgain() }
            } else if let name = topics.parseRequest(message.topic) {
                handleRequest(message, name: name, bluez: bluez)
            } else if let (family, id, name) = topics.parseCommand(message.topic) {
                commandRouter.route(
                    message, family: family, id: id, name: name,
                    queue: { gateway.withLock { $0.sessions.values.first { $0.session.family == family && $0.session.id == id }?.commands } },
                    answersWithoutSession: { answersWithoutSession(family: family, id: id) })
            } else if topics.isMalformedCommand(message.topic) {
                warn("command ignored: its topic names no valid device id or command", kind: "malformed command topic",
                     metadata: ["topic": "\(message.topic.prefix(200))"])
            } else if message.retain, let (family, id) = topics.parseInfo(message.topic) {
                correctLeftovers(family: family, id: id, info: message)
            } else if let (family, id, leaf) = topics.parseLeaf(message.topic), let driver = drivers.first(where: { $0.family == family }),
                driver.followedLeaves.contains(leaf), !driver.followed(id: id, leaf: leaf, payload: message.payload)
            {
                warn("malformed \(leaf) ignored", kind: "malformed \(leaf)", metadata: ["topic": "\(message.topic)"])
            }
        }
    }

    /// A warning another client on the broker can cause: written at most a few times a minute per kind, the next
    /// one saying how many were left out meanwhile.
    func warn(_ message: String, kind: String, metadata: Logger.Metadata) {
        warnings.warn(message, kind: kind, metadata: metadata, to: logger)
    }
}
