/// Whether a scalar is read inside a flow collection, where `,` `[` `]` `{` `}` end it.
enum YAMLContext: Equatable {
    case block, flow
}

/// The ASCII bytes with a meaning in YAML.
///
/// The parser works on UTF-8 bytes: every byte with a meaning in YAML is ASCII, and the bytes of a
/// multi-byte character never are, so scalars can be cut out of a line without decoding it.
enum YAMLByte {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space = UInt8(ascii: " ")
    static let hash = UInt8(ascii: "#")
    static let dash = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let percent = UInt8(ascii: "%")
    static let singleQuote = UInt8(ascii: "'")
    static let doubleQuote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")

    static func isInlineSpace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    static func isFlowIndicator(_ byte: UInt8) -> Bool {
        byte == comma || byte == openBracket || byte == closeBracket || byte == openBrace || byte == closeBrace
    }

    /// The byte as a character, for error messages.
    static func character(_ byte: UInt8) -> Character { Character(Unicode.Scalar(byte)) }
}

/// A reading position in the document's lines, with the tests on bytes every part of the parser shares.
struct YAMLCursor {
    /// How deeply collections may nest: far beyond any configuration, and short of exhausting the stack.
    static let maximumNesting = 64

    /// Line n of the text is `lines[n - 1]`.
    let lines: [[UInt8]]
    private(set) var lineIndex = 0
    /// Byte offset in the current line.
    private(set) var column = 0
    private var nesting = 0

    init(lines: [[UInt8]]) { self.lines = lines }

    var lineNumber: Int { lineIndex + 1 }

    /// The byte `offset` bytes after the cursor, nil past the end of the line.
    func peek(_ offset: Int = 0) -> UInt8? {
        guard lineIndex < lines.count else { return nil }
        let index = column + offset
        return index < lines[lineIndex].count ? lines[lineIndex][index] : nil
    }

    var current: UInt8? { peek() }

    mutating func advance() { column += 1 }

    /// Spaces and tabs between tokens of a line (indentation is read by `seekContentLine`).
    mutating func skipInlineSpace() {
        while let byte = current, YAMLByte.isInlineSpace(byte) { advance() }
    }

    /// `#` starts a comment only at the start of a line or after whitespace (`a#b` is a scalar).
    var isAtComment: Bool {
        current == YAMLByte.hash && (column == 0 || YAMLByte.isInlineSpace(lines[lineIndex][column - 1]))
    }

    var isAtLineEnd: Bool { current == nil || isAtComment }

    /// `-` followed by whitespace or the end of the line.
    var isAtSequenceIndicator: Bool {
        current == YAMLByte.dash && (peek(1).map(YAMLByte.isInlineSpace) ?? true)
    }

    /// `:` followed by whitespace or the end of the line, or in flow context by `,` `[` `]` `{` `}`.
    func isAtMappingSeparator(in context: YAMLContext) -> Bool {
        guard current == YAMLByte.colon else { return false }
        guard let next = peek(1) else { return true }
        return YAMLByte.isInlineSpace(next) || (context == .flow && YAMLByte.isFlowIndicator(next))
    }

    mutating func moveToNextLine() {
        lineIndex += 1
        column = 0
    }

    /// Moves to the indentation of the first line from the current one that holds content, skipping
    /// blank and comment lines; false at the end of the text.
    mutating func seekContentLine() throws(YAMLSyntaxError) -> Bool {
        column = 0
        while lineIndex < lines.count {
            let line = lines[lineIndex]
            guard let indent = line.firstIndex(where: { !YAMLByte.isInlineSpace($0) }), line[indent] != YAMLByte.hash
            else {
                lineIndex += 1
                continue
            }
            if line[..<indent].contains(YAMLByte.tab) {
                throw error("tab in indentation; indent with spaces only")
            }
            column = indent
            return true
        }
        return false
    }

    /// Bounds recursion, so that hostile input gives an error rather than a stack overflow.
    mutating func enterCollection() throws(YAMLSyntaxError) {
        guard nesting < Self.maximumNesting else {
            throw error("collections nested more than \(Self.maximumNesting) deep")
        }
        nesting += 1
    }

    mutating func leaveCollection() { nesting -= 1 }

    func error(_ message: String, line: Int? = nil) -> YAMLSyntaxError {
        YAMLSyntaxError(line: line ?? lineNumber, message: message)
    }
}
