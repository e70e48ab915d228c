/// The outcome of one decision for one device.
public struct OwnershipDecision: Hashable, Sendable {
    /// The state this gateway publishes now.
    public var state: ClaimState
    /// The term this gateway publishes now.
    public var term: UInt64
    /// What to do with the link.
    public var action: LinkAction
    /// True when the claim differs from the last one published in a way others must learn at once
    /// (state, term, or whether this gateway can take the device); otherwise the periodic refresh
    /// is soon enough.
    public var publishNow: Bool
    /// Why the role changed in this decision, if it did.
    public var change: OwnershipChange?

    /// Creates a decision.
    public init(state: ClaimState, term: UInt64, action: LinkAction, publishNow: Bool, change: OwnershipChange?) {
        self.state = state
        self.term = term
        self.action = action
        self.publishNow = publishNow
        self.change = change
    }
}
