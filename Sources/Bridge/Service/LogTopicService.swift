import MQTT
import ServiceLifecycle

/// Publishes the lines `LogTopic` queued, on its own task rather than the logging thread's: a line may be logged
/// with any lock held, on the D-Bus thread or inside the broker client, where publishing could wait on that very
/// lock. Runs inside the broker session, so that its first lines go after `online`; it is the first of those
/// services, so the last to stop, and sees the devices' own last lines.
struct LogTopicService: Service {
    let log: LogTopic
    let mqtt: any BrokerConnection

    func run() async {
        for await _ in log.doorbell.cancelOnGracefulShutdown() {
            await publishWaiting(waitingForBroker: true)
        }
        // Shutting down: what is still queued goes if the broker takes it now, without waiting for it.
        await publishWaiting(waitingForBroker: false)
    }

    /// Publishes every queued line, oldest first. A line the broker does not take waits (it stays first in the
    /// bounded queue) until the broker is back, then is tried once more, and is counted as left out if that fails too.
    private func publishWaiting(waitingForBroker: Bool) async {
        while let line = log.first {
            var published = log.publish(line, on: mqtt)
            if !published, waitingForBroker, await brokerBack() {
                published = log.publish(line, on: mqtt)
            }
            log.finished(line, published: published)
        }
    }

    /// Waits until the broker session is up again; false when it will not be (stopped, refused for good, or the
    /// gateway is shutting down).
    private func brokerBack() async -> Bool {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await mqtt.connected(timeout: .seconds(60)) }
                return true
            } catch let error as MQTTError {
                // An outage longer than the wait: wait again. Anything else will not heal.
                guard case .timeout = error else { return false }
            } catch {
                return false
            }
        }
        return false
    }
}
