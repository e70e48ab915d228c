/// A value of a family's section that cannot be used.
public struct FamilySettingError: Error, Sendable, Equatable {
    /// The key's path in the section.
    public let path: String
    /// Why, as the rest of a sentence after the key's name ("must be …").
    public let message: String

    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }
}
