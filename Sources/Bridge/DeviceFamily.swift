/// A device family's name, the first level of its devices' topics (`<family>/<id>/…`). Each family
/// declares its own in its folder (`<Family>Driver.swift`); the families the gateway serves are those
/// `FamilyRegistry` lists.
public struct DeviceFamily: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// A registered family's name; nil for any other.
    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    /// For a family's own declaration, written or declared as data (a `DeviceDeclaration`'s name, which its reader
    /// checked with `isValidName`).
    init(declaring name: String) { rawValue = name }

    /// The written families, in the registry's order; a gateway serves these and the declared ones
    /// (`TopicMap.families`).
    public static let allCases: [DeviceFamily] = FamilyRegistry.drivers.map { $0.family }

    /// The families a gateway of `configuration` serves: the written ones, then those it declares.
    public static func served(by configuration: BridgeConfiguration) -> [DeviceFamily] {
        allCases + configuration.declarations.map { DeviceFamily(declaring: $0.family) }
    }

    /// Whether `name` may name a family: 1 to 32 lower-case letters, digits or `_`, starting with a letter.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.count <= 32 && TopicMap.isValidCommandName(name)
    }

    public var description: String { rawValue }
}
