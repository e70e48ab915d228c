/// A command the bridge was asked to send is outside the CPR-Band's documented limits, or not allowed in
/// the band's current mode.
public struct CPRBandCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending field, named as in the Swift API (`minMillimetres`, `maxMillimetres`, `name`, `mode`).
    public let field: String
    /// What is wrong with it.
    public let message: String

    /// Creates an error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`.
    public var description: String { "\(field): \(message)" }

    /// Fails with a range message unless `value` lies in `range`.
    static func check(_ value: Int, in range: ClosedRange<Int>, field: String) throws(CPRBandCommandError) {
        guard range.contains(value) else {
            throw CPRBandCommandError(
                field: field, message: "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
    }
}
