/// A band name for `newName` (cpr-band-and-grip.md §A.7), checked when it is built.
///
/// The Bus library sends each character's Unicode scalar as one byte and would trap above U+00FF, so
/// the bridge allows printable ASCII only (0x20–0x7E), 1 to 18 characters, not all spaces. On the wire
/// the name is right-padded with spaces to exactly 18 bytes.
public struct CPRBandName: Sendable, Equatable, Hashable {
    /// Length of the name field on the wire; longer names are refused.
    public static let paddedLength = 18
    /// The padding byte, a space.
    public static let padding: UInt8 = 0x20

    /// The name as given.
    public let text: String

    /// Creates a name.
    /// - Throws: `FieldError` naming `name` when it is empty, all spaces, longer than 18
    ///   characters or not printable ASCII.
    public init(_ text: String) throws(FieldError) {
        guard text.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            throw FieldError(field: "name", message: "must be printable ASCII (0x20–0x7E)")
        }
        try FieldError.check(text.utf8.count, in: 1...Self.paddedLength, field: "name")
        guard text.utf8.contains(where: { $0 != Self.padding }) else {
            throw FieldError(field: "name", message: "must not be all spaces")
        }
        self.text = text
    }

    /// The 18 bytes sent after `F6`: the ASCII name, then spaces.
    public var paddedBytes: [UInt8] {
        Array(text.utf8) + Array(repeating: Self.padding, count: Self.paddedLength - text.utf8.count)
    }
}
