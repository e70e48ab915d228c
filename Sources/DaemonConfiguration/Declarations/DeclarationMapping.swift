/// One YAML mapping of a declaration, read key by key: a key it does not know, or one given twice, is refused with
/// its line (a misspelt `repeated` must not silently leave a field single).
struct DeclarationMapping {
    let node: YAMLNode
    let file: String
    private let pairs: [String: YAMLPair]

    init(_ node: YAMLNode, file: String, what: String, keys: Set<String>) throws(DeclarationError) {
        guard case .mapping(let entries) = node.content else {
            throw DeclarationError(file: file, line: node.line, message: "\(what) must be a mapping")
        }
        var pairs: [String: YAMLPair] = [:]
        for pair in entries {
            guard case .scalar(let key, _) = pair.key.content else {
                throw DeclarationError(file: file, line: pair.key.line, message: "a key of \(what) must be text")
            }
            guard keys.contains(key) else {
                throw DeclarationError(
                    file: file, line: pair.key.line,
                    message: "'\(Self.shown(key))' is no key of \(what) (\(keys.sorted().joined(separator: ", ")))")
            }
            guard pairs.updateValue(pair, forKey: key) == nil else {
                throw DeclarationError(file: file, line: pair.key.line, message: "'\(key)' is given twice")
            }
        }
        self.node = node
        self.file = file
        self.pairs = pairs
    }

    func value(_ key: String) -> YAMLNode? { pairs[key]?.value }

    func error(_ node: YAMLNode, _ message: String) -> DeclarationError {
        DeclarationError(file: file, line: node.line, message: message)
    }

    /// A scalar's text, or nil when the key is not there.
    func text(_ key: String) throws(DeclarationError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .scalar(let text, _) = value.content else { throw error(value, "\(key) must be a single value") }
        return text
    }

    func requiredText(_ key: String) throws(DeclarationError) -> String {
        guard let text = try text(key) else { throw error(node, "\(key) is missing") }
        return text
    }

    func flag(_ key: String) throws(DeclarationError) -> Bool? {
        guard let text = try text(key), let value = value(key) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw error(value, "\(key) must be true or false, not '\(Self.shown(text))'")
        }
    }

    /// A sequence's scalars (a single scalar counts as a list of one).
    func texts(_ key: String) throws(DeclarationError) -> [String] {
        guard let value = value(key) else { return [] }
        switch value.content {
        case .scalar(let text, _): return [text]
        case .mapping: throw error(value, "\(key) must be a list")
        case .sequence(let items):
            var texts: [String] = []
            for item in items {
                guard case .scalar(let text, _) = item.content else {
                    throw error(item, "\(key) must be a list of values")
                }
                texts.append(text)
            }
            return texts
        }
    }

    /// A value as it may be repeated in a message: at most 40 characters, control characters as `?`.
    static func shown(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(40).map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}
