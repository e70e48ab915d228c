import ServiceLifecycle

extension Bridge {
    /// The gateway's services, in start order; a graceful shutdown (SIGTERM, SIGINT) stops them in reverse:
    /// the watchdog, the fleet and the receive path first, then every device is disconnected, BlueZ is let
    /// go, and last the broker hears `offline`. Any of them that ends or fails ends the group.
    public var services: [ServiceGroupConfiguration.ServiceConfiguration] {
        var services: [any Service] = [
            BrokerService(bridge: self), BlueZService(bridge: self), DevicePolicyService(bridge: self),
            CommandReceiverService(bridge: self),
        ]
        if let fleet { services.append(FleetService(bridge: self, fleet: fleet)) }
        services.append(WatchdogService(bridge: self))
        return services.map { .init(service: $0, successTerminationBehavior: .gracefullyShutdownGroup) }
    }
}
