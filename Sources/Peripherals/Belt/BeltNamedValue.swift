/// A protocol enum whose values have stable lower-case names, used in MQTT topics and payloads.
public protocol BeltNamedValue: CaseIterable, Sendable {
    /// The lower-case name, e.g. `"app"`.
    var name: String { get }
}

extension BeltNamedValue {
    /// Looks a value up by name, ignoring case.
    public init?(name: String) {
        let wanted = name.lowercased()
        guard let match = Self.allCases.first(where: { $0.name == wanted }) else { return nil }
        self = match
    }
}
