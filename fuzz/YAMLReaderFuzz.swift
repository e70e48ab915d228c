// libFuzzer target: a configuration file through YAMLParser.parse, the reader ConfigurationFileReader
// runs on the text of `--config FILE` before it looks at a single key. The parser is internal; it uses
// nothing outside Sources/DaemonConfiguration/YAML, so scripts/fuzz compiles this file together with that
// folder alone, as the DaemonConfiguration module.
//
// Input: the file's bytes (no selector). Bytes that are not UTF-8 are repaired to U+FFFD, as
// String(decoding:) does for any caller that does not refuse them. Checks: never traps or hangs; an
// error names a line of the text (LF, CR-LF and CR end a line) and says something; every node's line
// is in the text and in document order (a child on or after its parent's line, each sibling on or
// after the last line of the one before); collections nest at most YAMLCursor.maximumNesting deep; a
// plain scalar is the text as written on its line (found there byte for byte, no control character
// but tab, no surrounding space, no `: ` or ` #`), and a plain key is not empty; the tree
// written back as one line of flow YAML, every scalar double-quoted, parses to the same tree (styles
// and lines aside).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = splitLines(Array(text.utf8))
    let root: YAMLNode?
    do {
        root = try YAMLParser.parse(text)
    } catch {
        guard (1...lines.count).contains(error.line), !error.message.isEmpty else {
            fatalError("\(error) for a text of \(lines.count) lines")
        }
        return 0
    }
    guard let root else { return 0 }
    _ = TreeWalk(lines: lines).check(root, from: 1, depth: 0, isKey: false)

    let flow = flowText(root)
    let again: YAMLNode?
    do {
        again = try YAMLParser.parse(flow)
    } catch {
        fatalError("the tree of \(text.debugDescription) written as \(flow.debugDescription) is refused: \(error)")
    }
    guard let again, same(root, again) else {
        let read = String(describing: again)
        fatalError("the tree of \(text.debugDescription) written as \(flow.debugDescription) reads back as \(read)")
    }
    return 0
}

/// The text's lines as YAMLDocumentLines cuts them: LF, CR-LF and CR each end one.
private func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines: [[UInt8]] = [[]]
    var previousWasCarriageReturn = false
    for byte in bytes {
        defer { previousWasCarriageReturn = byte == 0x0D }
        if byte == 0x0A && previousWasCarriageReturn { continue }
        if byte == 0x0A || byte == 0x0D { lines.append([]) } else { lines[lines.count - 1].append(byte) }
    }
    return lines
}

private struct TreeWalk {
    let lines: [[UInt8]]

    /// Checks `node` and what it holds; returns the last line the subtree uses, where its next sibling
    /// may start at the earliest.
    func check(_ node: YAMLNode, from earliest: Int, depth: Int, isKey: Bool) -> Int {
        guard node.line >= earliest, node.line <= lines.count else {
            fatalError("\(node) is on line \(node.line), expected \(earliest) to \(lines.count)")
        }
        var last = node.line
        switch node.content {
        case .scalar(let text, .plain):
            checkPlain(text, on: node.line, isKey: isKey)
        case .scalar:
            break
        case .sequence(let items):
            guard depth < YAMLCursor.maximumNesting else { fatalError("collections nested deeper than \(depth)") }
            for item in items { last = check(item, from: last, depth: depth + 1, isKey: false) }
        case .mapping(let pairs):
            guard depth < YAMLCursor.maximumNesting else { fatalError("collections nested deeper than \(depth)") }
            for pair in pairs {
                guard case .scalar = pair.key.content else { fatalError("a collection as a key: \(pair.key)") }
                last = check(pair.key, from: last, depth: depth + 1, isKey: true)
                last = check(pair.value, from: last, depth: depth + 1, isKey: false)
            }
        }
        return last
    }

    private func checkPlain(_ text: String, on line: Int, isKey: Bool) {
        let bytes = Array(text.utf8)
        if bytes.isEmpty {
            // An empty plain scalar is a missing value, never a key.
            guard !isKey else { fatalError("empty key on line \(line)") }
            return
        }
        let space: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        let pairs = zip(bytes, bytes.dropFirst())
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }), !space(bytes[0]),
            !space(bytes[bytes.count - 1]),
            !pairs.contains(where: { ($0 == UInt8(ascii: ":") && space($1)) || (space($0) && $1 == UInt8(ascii: "#")) }
            ),
            contains(lines[line - 1], bytes)
        else { fatalError("plain scalar \(text.debugDescription) is not as written on line \(line)") }
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        return (0...haystack.count - needle.count).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}

/// The tree as one line of flow YAML with every scalar double-quoted: the one layout the parser must
/// read the same whatever the original looked like.
private func flowText(_ node: YAMLNode) -> String {
    switch node.content {
    case .scalar(let text, _):
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\u{0}"..."\u{1F}", "\u{7F}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += "\\x" + (hex.count == 1 ? "0" : "") + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    case .sequence(let items):
        return "[" + items.map(flowText).joined(separator: ", ") + "]"
    case .mapping(let pairs):
        return "{" + pairs.map { flowText($0.key) + ": " + flowText($0.value) }.joined(separator: ", ") + "}"
    }
}

/// The same tree, whatever the styles and lines.
private func same(_ left: YAMLNode, _ right: YAMLNode) -> Bool {
    switch (left.content, right.content) {
    case (.scalar(let a, _), .scalar(let b, _)):
        return Array(a.utf8) == Array(b.utf8)
    case (.sequence(let a), .sequence(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    case (.mapping(let a), .mapping(let b)):
        return a.count == b.count && zip(a, b).allSatisfy { same($0.key, $1.key) && same($0.value, $1.value) }
    default:
        return false
    }
}
