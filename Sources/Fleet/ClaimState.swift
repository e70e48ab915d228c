/// What a gateway says it is doing with one device.
public enum ClaimState: String, CaseIterable, Hashable, Sendable {
    /// Hears the device (or not) and would connect it if chosen; holds no link to it.
    case candidate
    /// Holds, or is establishing, the one connection to the device.
    case owner
    /// Owned the device under the claim's term and has closed the link; nobody owns it yet.
    case released
}
