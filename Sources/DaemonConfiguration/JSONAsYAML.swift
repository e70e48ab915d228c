import Bridge

/// A JSON object as the YAML the configuration file reader takes, so that settings sent as JSON (`request/options`,
/// the options kept in the state directory) are read and checked by the same code as the file, with the same errors
/// and names: objects as nested block mappings, strings double-quoted (JSON's escapes are YAML's), numbers and
/// booleans plain, lists in flow style, null as `null` (the same as leaving the key out).
enum JSONAsYAML {
    static func text(_ members: [String: JSONValue]) -> String {
        var lines: [String] = []
        write(members, indent: 0, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func write(_ members: [String: JSONValue], indent: Int, into lines: inout [String]) {
        let margin = String(repeating: "  ", count: indent)
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            if case .object(let inner) = value, !inner.isEmpty {
                lines.append(margin + JSONValue.quoted(key) + ":")
                write(inner, indent: indent + 1, into: &lines)
            } else {
                lines.append(margin + JSONValue.quoted(key) + ": " + scalar(value))
            }
        }
    }

    /// A value on one line: JSON's own text is valid YAML flow syntax for every kind (`[1, 2]`, `{"a": "b"}`),
    /// except that a string must be double-quoted and a number plain, which JSON's text already is.
    private static func scalar(_ value: JSONValue) -> String { value.text }
}
