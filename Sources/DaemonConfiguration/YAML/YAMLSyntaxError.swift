/// Why a text is not in the YAML subset `YAMLParser` reads, and the line to look at.
struct YAMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the text.
    var line: Int
    /// Names the construct, e.g. "unterminated flow sequence ('[' without ']')".
    var message: String

    var description: String { "line \(line): \(message)" }
}
