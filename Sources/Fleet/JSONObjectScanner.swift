/// A JSON value as far as the claim decoder cares: scalars are kept, objects and arrays (allowed
/// only in fields a newer gateway may add) are checked for well-formedness and dropped.
enum ScannedValue: Hashable, Sendable {
    case string(String)
    case number(ScannedNumber)
    case boolean(Bool)
    case null
    case composite
}

/// A JSON number kept as text, so that range checks never go through floating point.
struct ScannedNumber: Hashable, Sendable {
    /// The number's bytes exactly as written (a slice of the payload, so nothing is copied).
    var written: ArraySlice<UInt8>
    var isNegative: Bool
    /// True when the number has neither fraction nor exponent.
    var isInteger: Bool
    /// The integer part's magnitude, or nil when it does not fit in 64 bits.
    var magnitude: UInt64?

    /// The number as written, for error messages.
    var text: String {
        String(decoding: written, as: UTF8.self)
    }
}

/// A strict reader for one top-level JSON object (RFC 8259 grammar), written by hand so the
/// library needs no Foundation. Every failure is a thrown error; nesting is bounded so hostile
/// payloads cannot exhaust the stack.
struct JSONObjectScanner {
    static let maximumDepth = 16

    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads the whole input as one object and returns its members in order of appearance.
    mutating func scanTopLevelObject() throws(ClaimDecodingError) -> [(name: String, value: ScannedValue)] {
        skipWhitespace()
        guard let first = peek() else { throw malformed("the payload is empty") }
        guard first == UInt8(ascii: "{") else {
            // Tell "valid JSON but not an object" apart from garbage.
            _ = try scanValue(depth: 1)
            skipWhitespace()
            guard index == bytes.count else { throw malformed("unexpected text after the value") }
            throw .notAnObject
        }
        let members = try scanObjectMembers(depth: 1)
        skipWhitespace()
        guard index == bytes.count else { throw malformed("unexpected text after the object") }
        return members
    }

    private mutating func scanObjectMembers(depth: Int) throws(ClaimDecodingError) -> [(
        name: String, value: ScannedValue
    )] {
        guard depth <= Self.maximumDepth else { throw malformed("nested deeper than \(Self.maximumDepth)") }
        index += 1  // the opening brace
        var members: [(name: String, value: ScannedValue)] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw malformed("expected a field name in quotes") }
            let name = try scanString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw malformed("expected ':' after a field name") }
            index += 1
            skipWhitespace()
            let value = try scanValue(depth: depth)
            members.append((name, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                return members
            default:
                throw malformed("expected ',' or '}' after a field")
            }
        }
    }

    private mutating func scanArrayElements(depth: Int) throws(ClaimDecodingError) {
        guard depth <= Self.maximumDepth else { throw malformed("nested deeper than \(Self.maximumDepth)") }
        index += 1  // the opening bracket
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            _ = try scanValue(depth: depth)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                return
            default:
                throw malformed("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func scanValue(depth: Int) throws(ClaimDecodingError) -> ScannedValue {
        guard let byte = peek() else { throw malformed("the payload ends where a value should be") }
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try scanString())
        case UInt8(ascii: "{"):
            _ = try scanObjectMembers(depth: depth + 1)
            return .composite
        case UInt8(ascii: "["):
            try scanArrayElements(depth: depth + 1)
            return .composite
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .boolean(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .boolean(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try scanNumber())
        default:
            throw malformed("unexpected character where a value should be")
        }
    }

    private mutating func expectLiteral(_ literal: String) throws(ClaimDecodingError) {
        let count = literal.utf8.count
        guard bytes.count - index >= count, bytes[index..<index + count].elementsEqual(literal.utf8) else {
            throw malformed("unknown literal")
        }
        index += count
    }

    private mutating func scanNumber() throws(ClaimDecodingError) -> ScannedNumber {
        let start = index
        let isNegative = peek() == UInt8(ascii: "-")
        if isNegative { index += 1 }
        guard let lead = peek(), isDigit(lead) else { throw malformed("expected a digit") }
        var magnitude: UInt64? = 0
        if lead == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw malformed("numbers must not have leading zeros") }
        } else {
            while let digit = peek(), isDigit(digit) {
                magnitude = magnitude.flatMap { $0.appendingDecimalDigit(digit - UInt8(ascii: "0")) }
                index += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let digit = peek(), isDigit(digit) else { throw malformed("expected a digit after '.'") }
            while let digit = peek(), isDigit(digit) { index += 1 }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard let digit = peek(), isDigit(digit) else { throw malformed("expected a digit in the exponent") }
            while let digit = peek(), isDigit(digit) { index += 1 }
        }
        return ScannedNumber(
            written: bytes[start..<index],
            isNegative: isNegative,
            isInteger: isInteger,
            magnitude: magnitude
        )
    }

    private mutating func scanString() throws(ClaimDecodingError) -> String {
        index += 1  // the opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw malformed("a string is not closed") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw malformed("a string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                try scanEscape(into: &utf8)
            case 0..<0x20:
                throw malformed("control characters must be escaped in strings")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func scanEscape(into utf8: inout [UInt8]) throws(ClaimDecodingError) {
        guard let byte = peek() else { throw malformed("a string ends inside an escape") }
        index += 1
        let simple: UInt8? =
            switch byte {
            case UInt8(ascii: "\""): UInt8(ascii: "\"")
            case UInt8(ascii: "\\"): UInt8(ascii: "\\")
            case UInt8(ascii: "/"): UInt8(ascii: "/")
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple {
            utf8.append(simple)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw malformed("unknown escape in a string") }
        let unit = try scanHexUnit()
        var scalarValue = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed by an escaped low surrogate.
            guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
                throw malformed("a surrogate escape is not paired")
            }
            index += 2
            let low = try scanHexUnit()
            guard (0xDC00...0xDFFF).contains(low) else { throw malformed("a surrogate escape is not paired") }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw malformed("a surrogate escape is not paired")
        default:
            break
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw malformed("an escape is not a character") }
        UTF8.encode(scalar) { utf8.append($0) }
    }

    private mutating func scanHexUnit() throws(ClaimDecodingError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = hexValue(byte) else {
                throw malformed("expected four hex digits after \\u")
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    private mutating func skipWhitespace() {
        while let byte = peek(),
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                || byte == UInt8(ascii: "\r")
        {
            index += 1
        }
    }

    private func peek(offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private func malformed(_ reason: String) -> ClaimDecodingError {
        .malformed(offset: index, reason: reason)
    }
}

extension UInt64 {
    /// `self * 10 + digit`, or nil when that overflows.
    fileprivate func appendingDecimalDigit(_ digit: UInt8) -> UInt64? {
        let (times10, overflowA) = multipliedReportingOverflow(by: 10)
        let (sum, overflowB) = times10.addingReportingOverflow(UInt64(digit))
        return overflowA || overflowB ? nil : sum
    }
}
