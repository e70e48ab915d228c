/// Turns the text into the lines of its single document, as UTF-8 bytes without line breaks.
///
/// A leading byte order mark is skipped, LF, CR-LF and CR all end a line, and the document markers
/// (`---` before the document, `...` after it) are checked and blanked, keeping every line's number.
enum YAMLDocumentLines {
    static func lines(of text: String) throws(YAMLSyntaxError) -> [[UInt8]] {
        var lines = splitLines(text)
        try rejectControlCharacters(in: lines)
        try keepSingleDocument(&lines)
        return lines
    }

    private static func splitLines(_ text: String) -> [[UInt8]] {
        var bytes = Array(text.utf8)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var previousWasCarriageReturn = false
        for byte in bytes {
            if byte == YAMLByte.lineFeed && previousWasCarriageReturn {
                previousWasCarriageReturn = false
                continue
            }
            previousWasCarriageReturn = byte == YAMLByte.carriageReturn
            if byte == YAMLByte.lineFeed || byte == YAMLByte.carriageReturn {
                lines.append(line)
                line = []
            } else {
                line.append(byte)
            }
        }
        lines.append(line)
        return lines
    }

    /// A stray control byte is most likely a damaged file; YAML does not allow one anyway.
    private static func rejectControlCharacters(in lines: [[UInt8]]) throws(YAMLSyntaxError) {
        for (index, line) in lines.enumerated() {
            if let byte = line.first(where: { ($0 < 0x20 && $0 != YAMLByte.tab) || $0 == 0x7F }) {
                let code = String(byte, radix: 16, uppercase: true)
                throw YAMLSyntaxError(
                    line: index + 1,
                    message:
                        "control character U+\(String(repeating: "0", count: 4 - code.count))\(code) is not allowed")
            }
        }
    }

    private enum Marker {
        case documentStart, documentEnd

        /// `---` or `...` at the start of a line, alone or followed by whitespace.
        init?(_ line: [UInt8]) {
            guard line.count >= 3, line.count == 3 || YAMLByte.isInlineSpace(line[3]) else { return nil }
            switch line.prefix(3) {
            case [YAMLByte.dash, YAMLByte.dash, YAMLByte.dash]: self = .documentStart
            case [YAMLByte.dot, YAMLByte.dot, YAMLByte.dot]: self = .documentEnd
            default: return nil
            }
        }
    }

    private static func keepSingleDocument(_ lines: inout [[UInt8]]) throws(YAMLSyntaxError) {
        var hasStarted = false
        var endLine: Int?
        for index in lines.indices where !isBlank(lines[index]) {
            let line = lines[index]
            let number = index + 1
            if let marker = Marker(line) {
                guard isBlank(Array(line.dropFirst(3))) else {
                    throw YAMLSyntaxError(
                        line: number,
                        message: "content on a document marker line ('---' or '...') is not supported; "
                            + "put it on the next line")
                }
                if marker == .documentStart && (hasStarted || endLine != nil) {
                    throw YAMLSyntaxError(line: number, message: "only one document is supported (a second '---')")
                }
                if marker == .documentEnd && endLine == nil { endLine = number }
                hasStarted = true
                lines[index] = []
            } else if let endLine {
                throw YAMLSyntaxError(
                    line: number,
                    message: "only one document is supported (content after the end marker '...' on line \(endLine))")
            } else if line.first == YAMLByte.percent && !hasStarted {
                throw YAMLSyntaxError(line: number, message: "directives ('%YAML', '%TAG') are not supported")
            } else {
                hasStarted = true
            }
        }
    }

    /// Only spaces, tabs and perhaps a comment.
    static func isBlank(_ line: [UInt8]) -> Bool {
        guard let first = line.firstIndex(where: { !YAMLByte.isInlineSpace($0) }) else { return true }
        return line[first] == YAMLByte.hash
    }
}
