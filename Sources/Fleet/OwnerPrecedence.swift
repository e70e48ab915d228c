/// Which of two owners keeps a device when both claim it (after a partition heals, or when
/// messages were lost): the higher term, being the later decision; on equal terms the smaller
/// gateway name. Both owners evaluate the same order, so exactly one of them gives up.
public enum OwnerPrecedence {
    /// True when an owner with (`term`, `gateway`) keeps the device against (`otherTerm`, `otherGateway`).
    public static func prevails(term: UInt64, gateway: String, over otherTerm: UInt64, _ otherGateway: String) -> Bool {
        term != otherTerm ? term > otherTerm : gateway < otherGateway
    }
}
