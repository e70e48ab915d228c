/// Reads flow collections, `[a, b]` and `{k: v}`: nested, empty, with a trailing comma, and spanning
/// lines (with comments) as long as their continuation lines stay indented deeper than the enclosing
/// block; only a closing bracket may sit at the block's own indentation.
///
/// A flow-mapping entry without a value (`{a}`, which YAML reads as `a: null`) is rejected: in a
/// configuration file it is far more likely a list written with the wrong brackets.
extension YAMLCursor {
    mutating func readFlowSequence(minimumIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let opening = YAMLFlowOpening(isMapping: false, line: lineNumber, minimumIndent: minimumIndent)
        try enterCollection()
        defer { leaveCollection() }
        advance()
        var items: [YAMLNode] = []
        while true {
            try skipFlowSpace(in: opening)
            if current == YAMLByte.closeBracket {
                advance()
                return YAMLNode(content: .sequence(items), line: opening.line)
            }
            try rejectEmptyEntry(in: opening)
            let item = try readInlineNode(in: .flow, minimumIndent: minimumIndent)
            let crossedLine = try skipFlowSpace(in: opening)
            if current == YAMLByte.colon {
                throw error("'key: value' inside a flow sequence is not supported; use a flow mapping {key: value}")
            }
            items.append(item)
            if try finishEntry(in: opening, after: item, crossedLine: crossedLine) {
                return YAMLNode(content: .sequence(items), line: opening.line)
            }
        }
    }

    mutating func readFlowMapping(minimumIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        let opening = YAMLFlowOpening(isMapping: true, line: lineNumber, minimumIndent: minimumIndent)
        try enterCollection()
        defer { leaveCollection() }
        advance()
        var pairs: [YAMLPair] = []
        while true {
            try skipFlowSpace(in: opening)
            if current == YAMLByte.closeBrace {
                advance()
                return YAMLNode(content: .mapping(pairs), line: opening.line)
            }
            try rejectEmptyEntry(in: opening)
            let pair = try readFlowPair(in: opening)
            pairs.append(pair)
            let crossedLine = try skipFlowSpace(in: opening)
            if try finishEntry(in: opening, after: pair.value, crossedLine: crossedLine) {
                return YAMLNode(content: .mapping(pairs), line: opening.line)
            }
        }
    }

    /// `key: value`, or `key:` before `,` or `}` for an empty value.
    private mutating func readFlowPair(in opening: YAMLFlowOpening) throws(YAMLSyntaxError) -> YAMLPair {
        let key = try readInlineNode(in: .flow, minimumIndent: opening.minimumIndent)
        guard case .scalar(let keyText, let keyStyle) = key.content else {
            throw error("complex keys (a flow collection as a key) are not supported", line: key.line)
        }
        let crossedLine = try skipFlowSpace(in: opening)
        // After a quoted key, a ':' needs no space (`{"a":1}`); after a plain one the scalar has
        // already stopped at a ':' separator.
        guard current == YAMLByte.colon else {
            if current == YAMLByte.comma || current == opening.closer {
                let hint = keyStyle == .plain && keyText.contains(":") ? " (a ':' must be followed by a space)" : ""
                throw error("flow mapping entry '\(keyText)' has no ': value'\(hint)")
            }
            throw unexpected(in: opening, after: key, crossedLine: crossedLine, expecting: "':'")
        }
        let colonLine = lineNumber
        advance()
        try skipFlowSpace(in: opening)
        if current == YAMLByte.comma || current == opening.closer {
            return YAMLPair(key: key, value: YAMLNode(content: .scalar("", .plain), line: colonLine))
        }
        return YAMLPair(key: key, value: try readInlineNode(in: .flow, minimumIndent: opening.minimumIndent))
    }

    /// Consumes the `,` after an entry (false: the collection goes on) or the closing bracket (true).
    private mutating func finishEntry(
        in opening: YAMLFlowOpening, after entry: YAMLNode, crossedLine: Bool
    ) throws(YAMLSyntaxError) -> Bool {
        if current == YAMLByte.comma {
            advance()
            return false
        }
        if current == opening.closer {
            advance()
            return true
        }
        throw unexpected(
            in: opening, after: entry, crossedLine: crossedLine,
            expecting: "',' or '\(YAMLByte.character(opening.closer))'")
    }

    private func unexpected(
        in opening: YAMLFlowOpening, after node: YAMLNode, crossedLine: Bool, expecting expected: String
    ) -> YAMLSyntaxError {
        if crossedLine, case .scalar(_, .plain) = node.content {
            return error(
                "multi-line plain scalars are not supported: this line continues the value on line \(node.line)")
        }
        return error("expected \(expected) in the \(opening.name) opened on line \(opening.line)")
    }

    private func rejectEmptyEntry(in opening: YAMLFlowOpening) throws(YAMLSyntaxError) {
        if current == YAMLByte.comma { throw error("empty entry in the \(opening.name) (',' with nothing before it)") }
    }

    /// Skips whitespace, comments and line breaks; true when it crossed a line break.
    @discardableResult
    private mutating func skipFlowSpace(in opening: YAMLFlowOpening) throws(YAMLSyntaxError) -> Bool {
        var crossedLine = false
        while true {
            skipInlineSpace()
            guard isAtLineEnd else { return crossedLine }
            moveToNextLine()
            guard try seekContentLine() else {
                throw error("unterminated \(opening.name) \(opening.pair)", line: opening.line)
            }
            // A closing bracket may sit at the enclosing block's indentation (JSON-like layout, which
            // libyaml accepts); any other line there means the collection was never closed.
            let isCloserAtBlockIndent =
                column == opening.minimumIndent - 1
                && (current == YAMLByte.closeBracket || current == YAMLByte.closeBrace)
            guard column >= opening.minimumIndent || isCloserAtBlockIndent else {
                throw error(
                    "unterminated \(opening.name) \(opening.pair) before line \(lineNumber), "
                        + "which is not indented deeper than the enclosing block",
                    line: opening.line)
            }
            crossedLine = true
        }
    }
}

/// Where a flow collection opened, for its error messages and the indentation of its continuation lines.
struct YAMLFlowOpening {
    var isMapping: Bool
    var line: Int
    var minimumIndent: Int

    var name: String { isMapping ? "flow mapping" : "flow sequence" }
    var closer: UInt8 { isMapping ? YAMLByte.closeBrace : YAMLByte.closeBracket }
    /// `('[' without ']')`
    var pair: String { isMapping ? "('{' without '}')" : "('[' without ']')" }
}
