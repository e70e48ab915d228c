/// What one gateway says about one device, published on that gateway's own topic for the device
/// and refreshed every refresh interval.
///
/// Every gateway writes only its own claims (one writer per topic), so no two gateways ever race
/// on one retained message; each gateway then runs the same decision over the claims it sees.
public struct Claim: Hashable, Sendable {
    /// The publishing gateway's name; unique in the fleet and stable across restarts.
    public var gateway: String
    /// The device key, for example `belt/aabbccddeeff`; carried by the topic, not the payload.
    public var device: String
    /// Bumped at each start of the gateway (kept on disk by the caller), so that claims from a
    /// previous life, such as a late will or a stale retained message, order before new ones.
    public var incarnation: UInt64
    /// Counts the gateway's publications within one incarnation; with `incarnation` it lets a
    /// receiver drop claims that arrive late or twice.
    public var sequence: UInt64
    /// Ownership epoch of the device: an owner's term, or for a candidate the highest term it has
    /// seen, so that knowledge of the current epoch spreads and survives restarts.
    public var term: UInt64
    /// What the gateway is doing with the device.
    public var state: ClaimState
    /// The gateway's smoothed RSSI for the device in dBm, or nil when it does not hear the device.
    public var rssi: Int?
    /// Connection slots the gateway still has for new devices.
    public var freeSlots: Int

    /// Creates a claim.
    public init(
        gateway: String,
        device: String,
        incarnation: UInt64,
        sequence: UInt64,
        term: UInt64,
        state: ClaimState,
        rssi: Int?,
        freeSlots: Int
    ) {
        self.gateway = gateway
        self.device = device
        self.incarnation = incarnation
        self.sequence = sequence
        self.term = term
        self.state = state
        self.rssi = rssi
        self.freeSlots = freeSlots
    }

    /// True when this claim was published after `other` by the same gateway: a later incarnation,
    /// or the same incarnation and a higher sequence number.
    public func isNewer(than other: Claim) -> Bool {
        (incarnation, sequence) > (other.incarnation, other.sequence)
    }
}
