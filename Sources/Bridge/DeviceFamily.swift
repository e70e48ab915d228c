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

    /// For a family's own declaration.
    init(declaring name: String) { rawValue = name }

    /// The registered families, in the registry's order.
    public static let allCases: [DeviceFamily] = FamilyRegistry.drivers.map { $0.family }

    public var description: String { rawValue }
}
