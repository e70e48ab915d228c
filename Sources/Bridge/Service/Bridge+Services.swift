import Logging
import ServiceLifecycle

extension Bridge {
    /// The gateway's services. Start-up order is their nesting, not gates: the broker session comes first and runs
    /// the receive path and BlueZ inside it; BlueZ, once started, runs the device policy and the fleet inside it.
    /// A graceful shutdown (SIGTERM, SIGINT) stops them from the inside out: the watchdog, the receive path, the
    /// fleet, then every device is disconnected, BlueZ is let go, and last the broker hears `offline`. Any of them
    /// that ends or fails ends the group.
    ///
    /// ```
    /// BrokerService ─ connect, "online", subscribe
    /// ├── CommandReceiverService           the receive path (it reads the retained leftovers first)
    /// └── BlueZService ─ leftovers read (≤3 s), BlueZ started, pairing agent
    ///     ├── DevicePolicyService          READY=1, BlueZ followed, discovery kept on
    ///     └── FleetService                 with a fleet only
    /// WatchdogService
    /// ```
    public var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        let outermost: [any Service] = [BrokerService(bridge: self), WatchdogService(bridge: self)]
        return outermost.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) }
    }

    /// Runs `services` inside the calling service, until they end or its task is shut down gracefully (they are
    /// stopped in reverse order), then `tearDown`, also when one of them failed. Nothing runs inside when the
    /// calling service is already shutting down (a start-up cut short) or `services` is empty.
    func runInside(_ services: [any Service], thenTearDown tearDown: () async -> Void) async throws {
        do {
            if !services.isEmpty, !Task.isShuttingDownGracefully {
                let group = ServiceGroup(configuration: ServiceGroupConfiguration(
                    services: services.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) },
                    logger: Logger(label: "gatt2mqtt.services")))
                try await group.run()
            }
        } catch {
            await tearDown()
            throw error
        }
        await tearDown()
    }
}
