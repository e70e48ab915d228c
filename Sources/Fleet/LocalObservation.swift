/// What this gateway itself knows about one device right now.
public struct LocalObservation: Hashable, Sendable {
    /// This gateway's smoothed RSSI for the device in dBm, or nil when it does not hear it.
    /// While connected, the caller should pass the link's RSSI: many devices stop advertising then.
    public var rssi: Int?
    /// Connection slots this gateway still has for new devices (a device it owns holds one already).
    public var freeSlots: Int
    /// True while this gateway's link to the device is up.
    public var linkUp: Bool
    /// True while this gateway's MQTT session is up, so its claims reach the others and theirs
    /// reach it. A gateway that cannot announce a device must not take it.
    public var brokerConnected: Bool
    /// True while no other gateway is online on the broker: there is nobody to wait for or to hand over to,
    /// so the fleet's waits and grace periods do not apply (`OwnershipArbiter`, "Alone").
    public var alone: Bool

    /// Creates an observation.
    public init(rssi: Int?, freeSlots: Int, linkUp: Bool, brokerConnected: Bool = true, alone: Bool = false) {
        self.rssi = rssi
        self.freeSlots = freeSlots
        self.linkUp = linkUp
        self.brokerConnected = brokerConnected
        self.alone = alone
    }
}
