import Bridge

/// Settings in effect as YAML in the file's own keys: a path's levels are nested mappings, opened once for the
/// settings that share them; what is not set (or a secret from the environment) is a comment.
enum EffectiveSettingsYAML {
    static func lines(_ settings: [EffectiveSetting]) -> [String] {
        var lines: [String] = []
        func add(_ indent: Int, _ text: String) { lines.append(String(repeating: "  ", count: indent) + text) }
        var open: [Substring] = []
        for setting in settings {
            var parts = setting.path.split(separator: ".")
            let leaf = parts.removeLast()
            let shared = zip(open, parts).prefix { $0 == $1 }.count
            open = Array(open.prefix(shared))
            for part in parts.dropFirst(shared) {
                add(open.count, "\(part):")
                open.append(part)
            }
            let indent = open.count
            switch setting.value {
            case .number(let value): add(indent, "\(leaf): \(EffectiveSetting.number(value))")
            case .word(let word): add(indent, "\(leaf): \(word)")
            case .text(let text): add(indent, "\(leaf): \(quoted(text))")
            case .integers(let values):
                add(indent, "\(leaf): [" + values.map(String.init).joined(separator: ", ") + "]")
            case .flag(let value): add(indent, "\(leaf): \(value)")
            case .texts(let texts): add(indent, "\(leaf): [" + texts.map(quoted).joined(separator: ", ") + "]")
            case .mapping(let pairs) where pairs.isEmpty: add(indent, "\(leaf): {}")
            case .mapping(let pairs):
                add(indent, "\(leaf):")
                for (key, value) in pairs.sorted(by: { $0.key < $1.key }) {
                    add(indent + 1, "\(quoted(key)): \(quoted(value))")
                }
            case .secret(_, let note): if let note { add(indent, "# \(leaf): \(note)") }
            case .unset(let why): add(indent, "# \(leaf): \(why)")
            }
        }
        return lines
    }

    /// A YAML double-quoted scalar: JSON's escapes are valid there.
    private static func quoted(_ text: String) -> String { JSONValue.quoted(text) }
}
