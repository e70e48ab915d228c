/// Which half of a legacy serial number (`SN1!`/`SN2!`) or device ID (`ID1!`/`ID2!`) is meant.
public enum Activ5IdentifierHalf: Int, Sendable, CaseIterable {
    /// The first half.
    case first = 1
    /// The second half.
    case second = 2
}
