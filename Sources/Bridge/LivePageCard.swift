/// How the live page shows a device of a family (sent in its `hello` frame, docs/live-page.md): declared
/// by the family in its folder, so the page itself knows no family.
public struct LivePageCard: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var leaf: String
        public var label: String
        public var unit: String?

        public init(_ leaf: String, _ label: String, unit: String? = nil) {
            self.leaf = leaf
            self.label = label
            self.unit = unit
        }
    }

    /// The family's name for people ("CPR-Band").
    public var label: String
    /// The retained or streamed leaves shown as values.
    public var fields: [Field]
    /// The leaf drawn as a chart, with the chart's range (and whether it wraps, as a heading does).
    public var stream: (leaf: String, range: ClosedRange<Double>, wraps: Bool)?
    /// Whether the values take the card's whole width (long texts, such as the grip's events).
    public var wide = false

    public init(
        label: String, fields: [Field], stream: (leaf: String, range: ClosedRange<Double>, wraps: Bool)? = nil,
        wide: Bool = false
    ) {
        self.label = label
        self.fields = fields
        self.stream = stream
        self.wide = wide
    }

    public static func == (lhs: LivePageCard, rhs: LivePageCard) -> Bool {
        lhs.json == rhs.json
    }

    /// As the page reads it: `{"label":…,"fields":[[leaf,label,unit?]…],"stream":…,"range":[lo,hi],"wrap":…,"wide":…}`.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "label": .string(label),
            "fields": .array(
                fields.map { field in
                    .array([.string(field.leaf), .string(field.label)] + (field.unit.map { [.string($0)] } ?? []))
                }),
        ]
        if let stream {
            members["stream"] = .string(stream.leaf)
            members["range"] = .array([.number(stream.range.lowerBound), .number(stream.range.upperBound)])
            if stream.wraps { members["wrap"] = .bool(true) }
        }
        if wide { members["wide"] = .bool(true) }
        return .object(members)
    }
}
