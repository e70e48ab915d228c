/// A gateway in a fleet (several gateways on one broker that share devices): it connects a device only
/// while the fleet's ownership rules (module `Fleet`, docs/fleet-ownership.md) make it the owner.
public struct FleetOptions: Sendable, Equatable {
    /// How often the gateway republishes its claims and its heartbeat; the rules' other periods follow
    /// from it (lease 3×, settle 1.5×). Every gateway of a fleet must use the same.
    public var refreshInterval: Duration = .seconds(10)
    /// Where the gateway keeps its incarnation, the counter it bumps at every start so that the other
    /// gateways can tell its new claims from its old ones.
    public var incarnationFile = "/var/lib/gatt2mqtt/fleet-incarnation"

    public init() {}
}
