/// A value the bridge was asked to send (or a profile was given) that a device's wire format cannot hold:
/// every family's command and profile errors.
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending field, named as in the Swift API or a profile's JSON (`intensity`, `milliseconds`, `events`).
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
    static func check(_ value: Int, in range: ClosedRange<Int>, field: String) throws(FieldError) {
        guard range.contains(value) else {
            throw FieldError(field: field, message: "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
    }
}
