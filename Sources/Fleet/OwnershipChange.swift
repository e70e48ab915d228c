/// Why a decision changed this gateway's role for the device; meant for logs and tests.
public enum OwnershipChange: Hashable, Sendable {
    /// Became owner under this term.
    case tookOwnership(term: UInt64)
    /// Saw a live owner that outranks it (higher term, or same term and smaller name) and gave up.
    case lostConflict(to: String)
    /// A candidate stayed stronger by more than the hysteresis for the challenge period.
    case handedOver(to: String)
    /// The link stayed down for the whole grace period.
    case linkLost
    /// The link has closed after one of the above, so the release is now published.
    case releaseCompleted
    /// Another gateway owns the device again, so this one goes from released back to candidate.
    case becameCandidate
}
