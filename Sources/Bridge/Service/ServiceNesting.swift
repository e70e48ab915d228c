import Logging
import ServiceLifecycle

/// Services that run others inside them (the broker session, BlueZ): start-up order is their nesting.
enum ServiceNesting {
    /// Runs `services` inside the calling service, until they end or its task is shut down gracefully (they are
    /// stopped in reverse order), then `tearDown`, also when one of them failed. Nothing runs inside when the
    /// calling service is already shutting down (a start-up cut short) or `services` is empty.
    static func run(_ services: [any Service], thenTearDown tearDown: () async -> Void) async throws {
        do {
            if !services.isEmpty, !Task.isShuttingDownGracefully {
                let group = ServiceGroup(
                    configuration: ServiceGroupConfiguration(
                        services: services.map {
                            .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup)
                        },
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
