import MQTT

extension Bridge {
    /// Every feature's topics and handler, in the order a message is offered to them: the fleet sees a
    /// gateway status first (and leaves the gateway's own to the leftovers), the rest are disjoint.
    var brokerRoutes: [BrokerRoute] {
        [fleetRoute, leftoversRoute, homeAssistantRoute, requestRoute, commandRoute, followedLeavesRoute].compactMap { $0 }
    }

    /// Claims, heartbeats and the other gateways' statuses (their wills end their claims at once).
    private var fleetRoute: BrokerRoute? {
        guard fleet != nil else { return nil }
        return BrokerRoute(
            subscriptions: [
                .init(filter: topics.claimFilter, qos: .atMostOnce), .init(filter: topics.fleetHeartbeatFilter, qos: .atMostOnce),
                .init(filter: topics.everyGateway("status"), qos: .atLeastOnce, afterRetainedState: true),
            ],
            take: { [self] in receiveFleetMessage($0) })
    }

    /// The retained `info` of the devices an earlier run served (what a crash left behind, corrected before any
    /// device is served), ended by the gateway's own retained status.
    private var leftoversRoute: BrokerRoute {
        BrokerRoute(
            subscriptions: DeviceFamily.allCases.map { .init(filter: topics.infoFilter($0), qos: .atLeastOnce) }
                + [.init(filter: topics.status, qos: .atLeastOnce, afterRetainedState: true)],
            take: { [self] message in
                if message.topic == topics.status {
                    // Only the retained copy our subscription brings ends the leftovers: a persistent session may
                    // first deliver what was queued for it, such as the crashed run's own will.
                    if message.retain { leftoversRead.fire() }
                    return true
                }
                guard message.retain, let (family, id) = topics.parseInfo(message.topic) else { return false }
                correctLeftovers(family: family, id: id, info: message)
                return true
            })
    }

    /// Home Assistant's status: announced again when it comes back online.
    private var homeAssistantRoute: BrokerRoute? {
        guard let topic = homeAssistant.statusTopic else { return nil }
        return BrokerRoute(
            subscriptions: [.init(filter: topic, qos: .atLeastOnce)],
            take: { [self] message in
                guard message.topic == topic else { return false }
                if message.payloadString == "online" { homeAssistant.announceAgain() }
                return true
            })
    }

    /// The gateway's requests (scan, connect, …).
    private var requestRoute: BrokerRoute {
        BrokerRoute(
            subscriptions: [.init(filter: topics.requestFilter, qos: .atLeastOnce)],
            take: { [self] message in
                guard let name = topics.parseRequest(message.topic) else { return false }
                handleRequest(message, name: name, bluez: bluez)
                return true
            })
    }

    /// Commands to devices, to their sessions' queues (or answered here when no session takes them).
    private var commandRoute: BrokerRoute {
        BrokerRoute(
            subscriptions: DeviceFamily.allCases.map { .init(filter: topics.commandFilter($0), qos: .atLeastOnce) },
            take: { [self] message in
                if let (family, id, name) = topics.parseCommand(message.topic) {
                    commandRouter.route(
                        message, family: family, id: id, name: name, queue: { commandQueue(family: family, id: id) },
                        answersWithoutSession: { answersWithoutSession(family: family, id: id) })
                    return true
                }
                guard topics.isMalformedCommand(message.topic) else { return false }
                warn("command ignored: its topic names no valid device id or command", kind: "malformed command topic",
                     metadata: ["topic": "\(message.topic.prefix(200))"])
                return true
            })
    }

    /// The leaves a family follows (a device's `desired` state, a belt's navigation), kept by its driver.
    private var followedLeavesRoute: BrokerRoute {
        BrokerRoute(
            subscriptions: drivers.flatMap { driver in
                driver.followedLeaves.map { .init(filter: topics.leafFilter(driver.family, $0), qos: .atLeastOnce) }
            },
            take: { [self] message in
                guard let (family, id, leaf) = topics.parseLeaf(message.topic), let driver = drivers.first(where: { $0.family == family }),
                    driver.followedLeaves.contains(leaf)
                else { return false }
                if !driver.followed(id: id, leaf: leaf, payload: message.payload) {
                    warn("malformed \(leaf) ignored", kind: "malformed \(leaf)", metadata: ["topic": "\(message.topic)"])
                }
                return true
            })
    }
}
