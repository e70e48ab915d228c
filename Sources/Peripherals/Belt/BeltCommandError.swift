/// A command the bridge was asked to send is out of the belt's range.
public struct BeltCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending field, named as in the Swift API (e.g. `"intensity"`, `"orientationValue"`).
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
    static func check(_ value: Int, in range: ClosedRange<Int>, field: String) throws(BeltCommandError) {
        guard range.contains(value) else {
            throw BeltCommandError(field: field, message: "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
    }
}
