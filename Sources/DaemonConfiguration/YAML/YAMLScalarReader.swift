/// Reads the node at the cursor that is not laid out by indentation: a flow collection or a scalar.
/// Scalars never span lines.
extension YAMLCursor {
    /// - Parameter minimumIndent: how far a flow collection's continuation lines must be indented.
    mutating func readInlineNode(in context: YAMLContext, minimumIndent: Int) throws(YAMLSyntaxError) -> YAMLNode {
        switch current {
        case YAMLByte.openBracket: return try readFlowSequence(minimumIndent: minimumIndent)
        case YAMLByte.openBrace: return try readFlowMapping(minimumIndent: minimumIndent)
        case YAMLByte.doubleQuote: return try readDoubleQuotedScalar()
        case YAMLByte.singleQuote: return try readSingleQuotedScalar()
        default:
            try rejectIndicator(in: context)
            return readPlainScalar(in: context)
        }
    }

    /// Runs to the end of the line, a comment, a `: ` separator or (in flow context) a flow indicator;
    /// trailing whitespace is not part of it.
    private mutating func readPlainScalar(in context: YAMLContext) -> YAMLNode {
        let start = column
        var end = column
        while let byte = current {
            if YAMLByte.isInlineSpace(byte) {
                if peek(1) == YAMLByte.hash { break }
                advance()
                continue
            }
            if isAtMappingSeparator(in: context) || (context == .flow && YAMLByte.isFlowIndicator(byte)) { break }
            advance()
            end = column
        }
        let text = String(decoding: lines[lineIndex][start..<end], as: UTF8.self)
        return YAMLNode(content: .scalar(text, .plain), line: lineNumber)
    }

    /// Rejects what cannot start a plain scalar, naming the construct the writer probably meant.
    private func rejectIndicator(in context: YAMLContext) throws(YAMLSyntaxError) {
        guard let byte = current else { throw error("expected a value") }
        // `-`, `?` and `:` start a plain scalar when a non-space follows (`-5`, `::1`).
        let isIndicatorAlone =
            peek(1).map { YAMLByte.isInlineSpace($0) || (context == .flow && YAMLByte.isFlowIndicator($0)) } ?? true
        let character = YAMLByte.character(byte)
        switch character {
        case "&": throw error("anchors ('&name') are not supported")
        case "*": throw error("aliases ('*name') are not supported")
        case "!": throw error("tags ('!tag', '!!type') are not supported; quote the value to make it a string")
        case "|", ">":
            throw error("block scalars ('|' and '>') are not supported; write the value on one line, quoted if need be")
        case "%", "@", "`": throw error("'\(character)' cannot start a plain scalar; quote the value")
        case "#": throw error("'#' starts a comment only after a space; quote a value that starts with '#'")
        case ",", "]", "}":
            throw error(
                context == .flow
                    ? "unexpected '\(character)' in a flow collection"
                    : "'\(character)' cannot start a plain scalar; quote the value")
        case "?" where isIndicatorAlone: throw error("complex keys ('? ') are not supported")
        case ":" where isIndicatorAlone: throw error("':' without a key before it (empty keys are not supported)")
        case "-" where isIndicatorAlone:
            throw error(
                context == .flow
                    ? "a block sequence item ('- ') cannot appear inside a flow collection"
                    : "a block sequence cannot start on the same line as its key; "
                        + "put each '- item' on a line of its own")
        default: return
        }
    }

    /// `'…'`, where `''` stands for one quote.
    private mutating func readSingleQuotedScalar() throws(YAMLSyntaxError) -> YAMLNode {
        var text: [UInt8] = []
        advance()
        while true {
            guard let byte = current else { throw unterminatedQuote("single-quoted") }
            advance()
            if byte == YAMLByte.singleQuote {
                guard current == YAMLByte.singleQuote else { break }
                advance()
            }
            text.append(byte)
        }
        return YAMLNode(content: .scalar(String(decoding: text, as: UTF8.self), .singleQuoted), line: lineNumber)
    }

    /// `"…"` with the escapes `\\ \" \/ \n \t \r \0 \xXX \uXXXX \UXXXXXXXX`.
    private mutating func readDoubleQuotedScalar() throws(YAMLSyntaxError) -> YAMLNode {
        var text: [UInt8] = []
        advance()
        while true {
            guard let byte = current else { throw unterminatedQuote("double-quoted") }
            advance()
            if byte == YAMLByte.doubleQuote { break }
            if byte == YAMLByte.backslash {
                try readEscape(into: &text)
            } else {
                text.append(byte)
            }
        }
        return YAMLNode(content: .scalar(String(decoding: text, as: UTF8.self), .doubleQuoted), line: lineNumber)
    }

    /// The escape after a backslash; YAML's line-continuation escape is not supported (a quoted
    /// scalar stays on its line).
    private mutating func readEscape(into text: inout [UInt8]) throws(YAMLSyntaxError) {
        guard let code = current else { throw unterminatedQuote("double-quoted") }
        advance()
        switch YAMLByte.character(code) {
        case "\\", "\"", "/": text.append(code)
        case "n": text.append(YAMLByte.lineFeed)
        case "t": text.append(YAMLByte.tab)
        case "r": text.append(YAMLByte.carriageReturn)
        case "0": text.append(0)
        case "x": try readHexEscape(code: code, digits: 2, into: &text)
        case "u": try readHexEscape(code: code, digits: 4, into: &text)
        case "U": try readHexEscape(code: code, digits: 8, into: &text)
        default: throw error("unknown escape '\\\(YAMLByte.character(code))' in a double-quoted scalar")
        }
    }

    /// `\xXX`, `\uXXXX` or `\UXXXXXXXX`: the Unicode scalar with that code, appended as UTF-8.
    private mutating func readHexEscape(code: UInt8, digits: Int, into text: inout [UInt8]) throws(YAMLSyntaxError) {
        let escape = "\\\(YAMLByte.character(code))"
        var value: UInt32 = 0
        for _ in 0..<digits {
            guard let byte = current, let digit = Self.hexValue(byte) else {
                throw error("escape '\(escape)' needs \(digits) hexadecimal digits")
            }
            value = value * 16 + digit
            advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("escape '\(escape)\(String(value, radix: 16, uppercase: true))' is not a Unicode scalar")
        }
        text.append(contentsOf: scalar.utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private func unterminatedQuote(_ style: String) -> YAMLSyntaxError {
        error("unterminated \(style) scalar (a quoted scalar must end on the line it starts)")
    }
}
