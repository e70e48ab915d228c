/// Builders for the shapes BlueZ uses everywhere.
extension DBusValue {
    /// An `a{sv}` dictionary: each value is wrapped in a variant.
    public static func properties(_ values: [String: DBusValue]) -> DBusValue {
        let entries = values.sorted { $0.key < $1.key }.map { DBusDictEntry(.string($0.key), .variant($0.value)) }
        return .dictionary(keySignature: "s", valueSignature: "v", entries)
    }

    /// An `as` array.
    public static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map(DBusValue.string))
    }

    /// An `ao` array.
    public static func objectPaths(_ values: [String]) -> DBusValue {
        .array(elementSignature: "o", values.map(DBusValue.objectPath))
    }
}
