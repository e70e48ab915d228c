/// A value the bridge was asked to send is outside what the device's wire format can hold.
public struct Activ5CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The offending field, named as in the Swift API (e.g. `"milliseconds"`).
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
    static func check(_ value: Int, in range: ClosedRange<Int>, field: String) throws(Activ5CommandError) {
        guard range.contains(value) else {
            throw Activ5CommandError(
                field: field, message: "\(value) is outside \(range.lowerBound)…\(range.upperBound)")
        }
    }
}
