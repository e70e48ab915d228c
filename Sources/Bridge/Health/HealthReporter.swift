import Logging
import ServiceLifecycle

/// Publishes `gatt2mqtt/<gateway>/health` every interval: uptime, memory, message rates, and per device
/// notification rates, decode errors and reconnects. A service of its own beside the bridge: it only
/// reads the bridge's totals, and it stops first at shutdown, before the bridge says `offline`.
public struct HealthReporter: Service {
    let publisher: BrokerPublisher
    let interval: Duration
    let counters: @Sendable () -> GatewayCounters
    let logger: Logger

    public func run() async throws {
        await cancelWhenGracefulShutdown { await report() }
    }

    private func report() async {
        var previous = HealthReport.Snapshot(time: .now, counters: counters())
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled else { return }
            let current = HealthReport.Snapshot(time: .now, counters: counters())
            let dropped = current.counters.droppedNotifications - previous.counters.droppedNotifications
            if dropped > 0 {
                logger.warning(
                    "notifications dropped: a device streams faster than its values are published",
                    metadata: ["dropped": "\(dropped)"])
            }
            publisher.publish(
                Publication(
                    topic: publisher.topics.health,
                    payload: HealthReport.json(previous: previous, current: current).text))
            previous = current
        }
    }
}
