import BlueZ
import MQTT

extension Bridge {
    /// The receive path: every message from the broker, to the part of the gateway it is for.
    func receiveCommands() async {
        for await message in mqtt.messages {
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
            } else if message.retain, let (family, id) = topics.parseInfo(message.topic) {
                correctLeftovers(family: family, id: id, info: message)
            } else if let (family, id, leaf) = topics.parseLeaf(message.topic), let driver = drivers.first(where: { $0.family == family }),
                driver.followedLeaves.contains(leaf), !driver.followed(id: id, leaf: leaf, payload: message.payload)
            {
                logger.warning("malformed \(leaf) ignored", metadata: ["topic": "\(message.topic)"])
            }
        }
    }
}
