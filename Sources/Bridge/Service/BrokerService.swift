import Logging
import MQTT
import ServiceLifecycle

/// The broker session: connects with the `offline` will, says `online` and subscribes to what the
/// gateway follows. First in the group, so the last to stop: it says `offline` and closes the session
/// once the devices are disconnected.
struct BrokerService: Service {
    let bridge: Bridge

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await bridge.openBrokerSession() }
        try? await gracefulShutdown()
        await bridge.closeBrokerSession()
    }
}

extension Bridge {
    func openBrokerSession() async throws {
        // The bus connection's thread polls the broker's socket too: one I/O thread for the gateway.
        mqtt.start(host: dbus)
        do {
            try await mqtt.connected(timeout: .seconds(10))
        } catch let error as MQTTError where error.isPermanent {
            // Wrong credentials or a TLS failure will not heal by retrying, and must never fall back to
            // anything weaker: stop with the reason.
            logger.critical("cannot use the broker: \(error)")
            await mqtt.stop()
            throw error
        } catch {
            if Task.isCancelled { return }
            // Keep going: the client retries with backoff and sends the retained state once connected.
            logger.error("broker not reachable yet: \(error)")
            notifier.status("broker not reachable yet; retrying")
        }
        publisher.publish(.state(topics.status, "online"))
        try subscribe()
        brokerUp.open()
    }

    private func subscribe() throws {
        for family in DeviceFamily.allCases {
            try mqtt.subscribe(topics.commandFilter(family), qos: .atLeastOnce)
            // The retained `info` of the devices an earlier run of this gateway served shows what a crash left
            // behind (correctLeftovers).
            try mqtt.subscribe(topics.infoFilter(family), qos: .atLeastOnce)
        }
        for driver in drivers {
            for leaf in driver.followedLeaves { try mqtt.subscribe(topics.leafFilter(driver.family, leaf), qos: .atLeastOnce) }
        }
        // Subscribed last, the gateway's own retained status (just published) arrives after every retained
        // `info`: it ends the leftovers, which are corrected before any device is served.
        try mqtt.subscribe(topics.status, qos: .atLeastOnce)
        try mqtt.subscribe(topics.requestFilter, qos: .atLeastOnce)
        if let topic = homeAssistant.statusTopic { try mqtt.subscribe(topic, qos: .atLeastOnce) }
        if fleet != nil {
            try mqtt.subscribe(topics.claimFilter, qos: .atMostOnce)
            try mqtt.subscribe(topics.fleetHeartbeatFilter, qos: .atMostOnce)
            // The other gateways' wills: a gateway that dies while its broker lives is gone at once.
            try mqtt.subscribe(topics.everyGateway("status"), qos: .atLeastOnce)
        }
    }

    func closeBrokerSession() async {
        publisher.publish(.state(topics.status, "offline"))
        await mqtt.stop()
        logger.info("bridge stopped")
    }
}
