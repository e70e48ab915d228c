/// Parses the subset of YAML a configuration file needs into a node tree, with the standard library only.
///
/// Read: block mappings and sequences by indentation (a sequence may sit at its key's indentation),
/// flow collections, plain, single- and double-quoted scalars on one line, comments, a leading `---`
/// and a trailing `...`. Everything else (anchors, aliases, tags, block scalars, complex keys,
/// multi-line scalars, a second document) is a `YAMLSyntaxError` naming the line, never a guess.
enum YAMLParser {
    /// The document's root node; nil when the text holds no node (empty, only comments/blank lines, or only `---`).
    static func parse(_ text: String) throws(YAMLSyntaxError) -> YAMLNode? {
        var parser = YAMLBlockParser(cursor: YAMLCursor(lines: try YAMLDocumentLines.lines(of: text)))
        return try parser.parseDocument()
    }
}

/// Reads the block structure, mappings and sequences laid out by indentation, leaving the nodes
/// within a line to the cursor.
///
/// Between two entries the cursor rests at the start of the next unread line.
private struct YAMLBlockParser {
    /// A node read in block context, with the indentation of its entries when it is a block collection.
    private struct BlockValue {
        var node: YAMLNode
        var blockIndent: Int?
    }

    var cursor: YAMLCursor

    mutating func parseDocument() throws(YAMLSyntaxError) -> YAMLNode? {
        guard try cursor.seekContentLine() else { return nil }
        let rootIndent = cursor.column
        let root = try parseNode(parentIndent: -1)
        guard try cursor.seekContentLine() else { return root.node }
        if root.blockIndent != nil {
            throw cursor.error(
                "inconsistent indentation: \(cursor.column) spaces, "
                    + "but the document's root node is indented \(rootIndent)")
        }
        if isPlainScalar(root.node) && !startsBlockEntry() { throw multiLinePlainScalar(continuing: root.node) }
        throw cursor.error("content after the document's root node, which ended on line \(root.node.line)")
    }

    /// The node at the cursor, deeper than `parentIndent`: a block sequence, a block mapping, or an
    /// inline node alone on the rest of its line.
    private mutating func parseNode(parentIndent: Int) throws(YAMLSyntaxError) -> BlockValue {
        let indent = cursor.column
        if cursor.isAtSequenceIndicator {
            return BlockValue(node: try parseSequence(indent: indent, endsAtSiblingKey: false), blockIndent: indent)
        }
        let start = cursor
        let node = try cursor.readInlineNode(in: .block, minimumIndent: parentIndent + 1)
        cursor.skipInlineSpace()
        if cursor.isAtMappingSeparator(in: .block) {
            cursor = start
            return BlockValue(node: try parseMapping(indent: indent), blockIndent: indent)
        }
        try finishLine(after: node)
        return BlockValue(node: node, blockIndent: nil)
    }

    /// Entries at `indent`, the first one at the cursor (perhaps after `- ` on its line).
    private mutating func parseMapping(indent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        try cursor.enterCollection()
        defer { cursor.leaveCollection() }
        let line = cursor.lineNumber
        var pairs: [YAMLPair] = []
        while true {
            let entryLine = cursor.lineNumber
            let (pair, value) = try parseMappingEntry(indent: indent)
            pairs.append(pair)
            guard try cursor.seekContentLine(), cursor.column >= indent else { break }
            if cursor.column > indent {
                throw misplacedLine(after: value, of: "entry", on: entryLine, indent: indent)
            }
            if cursor.isAtSequenceIndicator {
                throw cursor.error(
                    "expected a mapping entry ('key: value') like the lines above, found a sequence item ('- ')")
            }
        }
        return YAMLNode(content: .mapping(pairs), line: line)
    }

    private mutating func parseMappingEntry(indent: Int) throws(YAMLSyntaxError) -> (YAMLPair, BlockValue) {
        let key = try cursor.readInlineNode(in: .block, minimumIndent: indent + 1)
        cursor.skipInlineSpace()
        guard cursor.isAtMappingSeparator(in: .block) else { throw keyWithoutSeparator(key) }
        guard case .scalar = key.content else {
            throw cursor.error("complex keys (a flow collection as a key) are not supported", line: key.line)
        }
        cursor.advance()
        cursor.skipInlineSpace()
        let value: BlockValue
        if cursor.isAtLineEnd {
            cursor.moveToNextLine()
            value = try parseIndentedValue(parentIndent: indent, emptyLine: key.line, acceptsSequenceAtSameIndent: true)
        } else {
            let node = try cursor.readInlineNode(in: .block, minimumIndent: indent + 1)
            cursor.skipInlineSpace()
            if cursor.isAtMappingSeparator(in: .block) {
                throw cursor.error(
                    "a mapping cannot start on the same line as its key ('a: b: c'); put it on the next lines, indented"
                )
            }
            try finishLine(after: node)
            value = BlockValue(node: node, blockIndent: nil)
        }
        return (YAMLPair(key: key, value: value.node), value)
    }

    /// Items at `indent`, the first one at the cursor.
    /// - Parameter endsAtSiblingKey: the sequence sits at its key's indentation (`allow:\n- a`), so a
    ///   line there that is not an item is the key's next sibling.
    private mutating func parseSequence(indent: Int, endsAtSiblingKey: Bool) throws(YAMLSyntaxError) -> YAMLNode {
        try cursor.enterCollection()
        defer { cursor.leaveCollection() }
        let line = cursor.lineNumber
        var items: [YAMLNode] = []
        while true {
            let itemLine = cursor.lineNumber
            let item = try parseSequenceItem(indent: indent)
            items.append(item.node)
            guard try cursor.seekContentLine(), cursor.column >= indent else { break }
            if cursor.column > indent {
                throw misplacedLine(after: item, of: "item", on: itemLine, indent: indent)
            }
            if !cursor.isAtSequenceIndicator {
                if endsAtSiblingKey { break }
                let found = startsBlockEntry() ? "a mapping entry" : "a line without '- '"
                throw cursor.error("expected a sequence item ('- ') like the lines above, found \(found)")
            }
        }
        return YAMLNode(content: .sequence(items), line: line)
    }

    private mutating func parseSequenceItem(indent: Int) throws(YAMLSyntaxError) -> BlockValue {
        let line = cursor.lineNumber
        cursor.advance()
        var sawTab = false
        while let byte = cursor.current, YAMLByte.isInlineSpace(byte) {
            sawTab = sawTab || byte == YAMLByte.tab
            cursor.advance()
        }
        if cursor.isAtLineEnd {
            cursor.moveToNextLine()
            return try parseIndentedValue(parentIndent: indent, emptyLine: line, acceptsSequenceAtSameIndent: false)
        }
        // The item's column is the indentation of a nested block (`- name: x` / `  id: 2`).
        if sawTab { throw cursor.error("tab after '-'; indent a sequence item with spaces only") }
        return try parseNode(parentIndent: indent)
    }

    /// The value of a `key:` or `-` with nothing after it on its line: the block below when it is
    /// deeper (or, for a key, a sequence at the key's own indentation); otherwise an empty plain scalar.
    private mutating func parseIndentedValue(
        parentIndent: Int, emptyLine: Int, acceptsSequenceAtSameIndent: Bool
    ) throws(YAMLSyntaxError) -> BlockValue {
        if try cursor.seekContentLine() {
            if cursor.column > parentIndent { return try parseNode(parentIndent: parentIndent) }
            if acceptsSequenceAtSameIndent && cursor.column == parentIndent && cursor.isAtSequenceIndicator {
                let sequence = try parseSequence(indent: parentIndent, endsAtSiblingKey: true)
                return BlockValue(node: sequence, blockIndent: parentIndent)
            }
        }
        return BlockValue(node: YAMLNode(content: .scalar("", .plain), line: emptyLine), blockIndent: nil)
    }

    /// After an inline node, only a comment may follow on its line.
    private mutating func finishLine(after node: YAMLNode) throws(YAMLSyntaxError) {
        cursor.skipInlineSpace()
        guard cursor.isAtLineEnd else {
            if cursor.current == YAMLByte.colon { throw colonWithoutSpace() }
            let what =
                switch node.content {
                case .scalar(_, .plain): "the value"
                case .scalar: "the quoted scalar"
                case .mapping, .sequence: "the flow collection"
                }
            throw cursor.error("unexpected text after \(what) (only a comment may follow it on its line)")
        }
        cursor.moveToNextLine()
    }

    /// The error for a line indented deeper than the entry or item before it that opens no child block.
    private func misplacedLine(after value: BlockValue, of noun: String, on line: Int, indent: Int) -> YAMLSyntaxError {
        if let blockIndent = value.blockIndent {
            return cursor.error(
                "inconsistent indentation: \(cursor.column) spaces, "
                    + "but the blocks around use \(indent) and \(blockIndent)")
        }
        if isPlainScalar(value.node) && !startsBlockEntry() { return multiLinePlainScalar(continuing: value.node) }
        return cursor.error(
            "unexpected indentation: deeper than the \(noun) on line \(line), which already has its value")
    }

    private func multiLinePlainScalar(continuing node: YAMLNode) -> YAMLSyntaxError {
        cursor.error(
            "multi-line plain scalars are not supported: this line continues the value on line \(node.line); "
                + "write the value on one line")
    }

    private func keyWithoutSeparator(_ key: YAMLNode) -> YAMLSyntaxError {
        if cursor.current == YAMLByte.colon { return colonWithoutSpace() }
        guard case .scalar(let text, let style) = key.content else {
            return cursor.error("expected a mapping entry ('key: value') like the lines above", line: key.line)
        }
        let hint =
            style == .plain && text.contains(":")
            ? "; a ':' separates only when a space or the line's end follows it" : ""
        return cursor.error("mapping entry '\(text)' has no ':' after its key\(hint)", line: key.line)
    }

    /// `"key":value`, which only flow context allows.
    private func colonWithoutSpace() -> YAMLSyntaxError {
        cursor.error("a ':' after a key must be followed by a space (\"key\": value)")
    }

    /// True when the line at the cursor starts a sequence item or a mapping entry.
    private func startsBlockEntry() -> Bool {
        if cursor.isAtSequenceIndicator { return true }
        var probe = cursor
        guard (try? probe.readInlineNode(in: .block, minimumIndent: 0)) != nil else { return false }
        probe.skipInlineSpace()
        return probe.isAtMappingSeparator(in: .block)
    }

    private func isPlainScalar(_ node: YAMLNode) -> Bool {
        if case .scalar(_, .plain) = node.content { return true }
        return false
    }
}
