import MQTT

/// What the sessions take from the broker: commands, to their sessions' queues, and the leaves a family
/// follows.
extension DeviceSessions {
    /// Commands to devices, to their sessions' queues (or answered here when no session takes them and
    /// `answersWithoutSession` says this gateway answers for the device).
    func commandRoute(answersWithoutSession: @escaping @Sendable (DeviceFamily, String) -> Bool) -> BrokerRoute {
        let topics = context.topics
        return BrokerRoute(
            subscriptions: topics.families.map { .init(filter: topics.commandFilter($0), qos: .atLeastOnce) },
            take: { [self] message in
                if let (family, id, name) = topics.parseCommand(message.topic) {
                    commandRouter.route(
                        message, family: family, id: id, name: name, queue: { commandQueue(family: family, id: id) },
                        answersWithoutSession: { answersWithoutSession(family, id) })
                    return true
                }
                guard topics.isMalformedCommand(message.topic) else { return false }
                context.warn(
                    "command ignored: its topic names no valid device id or command", kind: "malformed command topic",
                    metadata: ["topic": "\(message.topic.prefix(200))"])
                return true
            })
    }

    /// The leaves a family follows (a device's `desired` state, a belt's navigation), kept by its driver.
    var followedLeavesRoute: BrokerRoute {
        let context = context
        return BrokerRoute(
            subscriptions: context.drivers.flatMap { driver in
                driver.followedLeaves.map {
                    .init(filter: context.topics.leafFilter(driver.family, $0), qos: .atLeastOnce)
                }
            },
            take: { message in
                guard let (family, id, leaf) = context.topics.parseLeaf(message.topic),
                    let driver = context.driver(of: family),
                    driver.followedLeaves.contains(leaf)
                else { return false }
                if !driver.followed(id: id, leaf: leaf, payload: message.payload) {
                    context.warn(
                        "malformed \(leaf) ignored", kind: "malformed \(leaf)", metadata: ["topic": "\(message.topic)"])
                }
                return true
            })
    }
}
