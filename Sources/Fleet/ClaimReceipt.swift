/// What the arbiter did with a received claim.
public enum ClaimReceipt: Hashable, Sendable {
    /// Newer than anything seen from that gateway for this device: it counts from now for a lease.
    case accepted
    /// Not newer (by incarnation, then sequence) than the last claim seen from that gateway: a late,
    /// reordered or repeated message. Only its term is remembered.
    case stale
    /// Published under this gateway's own name (an echo, or a previous life's retained message).
    /// Only its term is remembered, so that terms never go backwards across a restart.
    case fromThisGateway
    /// About another device; handed to the wrong arbiter.
    case otherDevice
}
