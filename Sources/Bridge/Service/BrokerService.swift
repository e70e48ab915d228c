import Logging
import MQTT
import ServiceLifecycle

/// The broker session: connects with the `offline` will, subscribes to every feature's filters, says `online`,
/// and runs inside it the receive path and BlueZ (`inside`). Outermost, so the last to stop: it says `offline`
/// and closes the session once the devices are disconnected.
struct BrokerService: Service {
    let context: GatewayContext
    let notifier: SystemdNotifier
    /// Published with the status: the gateway's version, start, settings, adapters and fleet role.
    let info: GatewayInfo
    /// Every feature's route: their filters are subscribed to.
    let routes: [BrokerRoute]
    /// Stopped in reverse: the last first. Put the receive path last, so no command reaches a closing session.
    let inside: [any Service]

    func run() async throws {
        try await cancelWhenGracefulShutdown { try await open() }
        try await ServiceNesting.run(inside) { await close() }
    }

    private func open() async throws {
        let mqtt = context.mqtt
        // The bus connection's thread polls the broker's socket too: one I/O thread for the gateway.
        mqtt.start(host: context.bluez.descriptorHost)
        do {
            try await mqtt.connected(timeout: .seconds(10))
        } catch let error as MQTTError where error.isPermanent {
            // Wrong credentials or a TLS failure will not heal by retrying, and must never fall back to
            // anything weaker: stop with the reason.
            context.logger.critical("cannot use the broker: \(error)")
            await mqtt.stop()
            throw error
        } catch {
            if Task.isCancelled { return }
            // Keep going: the client retries with backoff and sends the retained state once connected.
            context.logger.error("broker not reachable yet: \(error)")
            notifier.status("broker not reachable yet; retrying")
        }
        // Said once per start; the retained `info` carries it for as long as it holds.
        if let warning = context.configuration.privilegedRequestsWarning { context.logger.warning("\(warning)") }
        // Listening before saying so: a client that sends a request the moment it sees `online` must find the
        // gateway subscribed. The broker handles one client's packets in order, so a SUBSCRIBE sent before the
        // status is in place when anyone receives it.
        let subscriptions = BrokerRoute.subscriptions(of: routes)
        for subscription in subscriptions where !subscription.afterRetainedState {
            try mqtt.subscribe(subscription.filter, qos: subscription.qos)
        }
        context.publisher.publish(.state(context.topics.status, "online"))
        // Retained beside the status, so Home Assistant and any client know the version at once (the health report
        // carries it too, but only every `health_s`).
        context.publisher.publish(.state(context.topics.gatewayTopic("version"), Gatt2MQTTVersion.current))
        info.refresh()
        // The gateway statuses last, after the retained state they end; the own status is retained by then, so its
        // retained copy always comes (on a first start too).
        for subscription in subscriptions where subscription.afterRetainedState {
            try mqtt.subscribe(subscription.filter, qos: subscription.qos)
        }
    }

    private func close() async {
        context.publisher.publish(.state(context.topics.status, "offline"))
        await context.mqtt.stop()
        context.logger.info("bridge stopped")
    }
}
