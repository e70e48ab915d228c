import Bridge

/// Settings in effect as YAML in the file's own keys: a path's levels are nested mappings, opened once for the
/// settings that share them; what is not set (or a secret from the environment) is a comment. A value that does not
/// come from the file (or the defaults) says where it comes from: `# from --broker`, `# from request/options`.
enum EffectiveSettingsYAML {
    static func lines(_ settings: [EffectiveSetting], source: (String) -> String? = { _ in nil }) -> [String] {
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
            let first = lines.count
            defer {
                // A secret's or an unset value's line is a comment already, which says what it needs to.
                if lines.count > first, !lines[first].hasPrefix(String(repeating: "  ", count: indent) + "#"),
                    let from = source(setting.path)
                {
                    lines[first] += "  # from \(from)"
                }
            }
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
