/// What the caller should do with its link to the device. The action is recomputed from the
/// state at every decision, so a lost event is repaired at the next one; the caller ignores a
/// `connect` while a connection attempt is already under way.
public enum LinkAction: Hashable, Sendable {
    /// The link is as it should be.
    case none
    /// This gateway owns the device and its link is down: connect (again).
    case connect
    /// This gateway does not own the device (or is handing it over) and its link is up: disconnect.
    case disconnect
}
