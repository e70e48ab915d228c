import Logging
import MQTT
import ServiceLifecycle

/// The broker session: connects with the `offline` will, says `online`, subscribes to what the gateway follows,
/// and runs inside it the receive path and BlueZ (`BlueZService`). Outermost, so the last to stop: it says
/// `offline` and closes the session once the devices are disconnected.
struct BrokerService: Service {
    let bridge: Bridge

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await bridge.openBrokerSession() }
        // Stopped in reverse: the receive path first, so no command reaches a closing session, then BlueZ.
        try await bridge.runInside([BlueZService(bridge: bridge), CommandReceiverService(bridge: bridge)]) {
            await bridge.closeBrokerSession()
        }
    }
}

extension Bridge {
    func openBrokerSession() async throws {
        // The bus connection's thread polls the broker's socket too: one I/O thread for the gateway.
        mqtt.start(host: bluez.descriptorHost)
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
    }

    /// Every feature's filters (`brokerRoutes`); the gateway statuses last, after the retained state they end.
    private func subscribe() throws {
        for subscription in BrokerRoute.subscriptions(of: brokerRoutes) { try mqtt.subscribe(subscription.filter, qos: subscription.qos) }
    }

    func closeBrokerSession() async {
        publisher.publish(.state(topics.status, "offline"))
        await mqtt.stop()
        logger.info("bridge stopped")
    }
}
