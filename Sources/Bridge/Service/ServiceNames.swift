// ServiceLifecycle logs every service it runs (at debug level) by its description. A struct's default one prints
// every stored property, the gateway's whole configuration among them; each service gives its name instead.
extension BrokerService: CustomStringConvertible { var description: String { "BrokerService" } }
extension BlueZService: CustomStringConvertible { var description: String { "BlueZService" } }
extension DevicePolicyService: CustomStringConvertible { var description: String { "DevicePolicyService" } }
extension FleetService: CustomStringConvertible { var description: String { "FleetService" } }
extension CommandReceiverService: CustomStringConvertible { var description: String { "CommandReceiverService" } }
extension WatchdogService: CustomStringConvertible { var description: String { "WatchdogService" } }
