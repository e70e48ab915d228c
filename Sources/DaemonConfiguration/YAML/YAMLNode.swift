/// How a scalar was written: plain scalars may be numbers or null; quoted ones are always strings.
enum YAMLScalarStyle: Sendable, Equatable {
    case plain, singleQuoted, doubleQuoted
}

/// One node of a parsed YAML document. Scalars keep the text as written (never resolved to numbers,
/// booleans or null), so that the caller decides what a value means.
struct YAMLNode: Sendable, Equatable {
    /// What the node holds.
    enum Content: Sendable, Equatable {
        case scalar(String, YAMLScalarStyle)
        /// In document order, duplicates kept (the caller reports them).
        case mapping([YAMLPair])
        case sequence([YAMLNode])
    }

    var content: Content
    /// 1-based line on which the node starts (for error messages).
    var line: Int
}

/// One `key: value` entry of a mapping.
struct YAMLPair: Sendable, Equatable {
    var key: YAMLNode
    var value: YAMLNode
}
