/// Finds a key that a JSON object holds twice, at any depth. JSONDecoder takes one of them and says nothing, so
/// `{"duration_s":10,"duration_s":3600}` would mean whatever the decoder picked, and a check (or a log line, or a
/// second reader) could see the other one. A request or command with one is refused instead (`CommandPayload`).
///
/// It reads text that JSONDecoder has already accepted, and that `CommandPayload` has found nested 16 levels at most,
/// so it checks no grammar of its own. Keys are compared as decoded Swift strings, as the decoder's dictionary
/// compares them: `"a"` and `"\u0061"` are one key.
struct DuplicateKeys {
    private let bytes: [UInt8]
    private var index = 0

    /// The first key found twice in one object of `bytes`, or nil.
    static func first(in bytes: [UInt8]) -> String? {
        var reader = DuplicateKeys(bytes: bytes)
        return reader.value()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads one value; returns a key some object in it holds twice.
    private mutating func value() -> String? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""):
            _ = string()
            return nil
        default:
            // A number, true, false or null: up to the next delimiter.
            while index < bytes.count, !Self.delimiters.contains(bytes[index]) { index += 1 }
            return nil
        }
    }

    private static let delimiters: Set<UInt8> = Set(",]} \t\r\n".utf8)

    private mutating func object() -> String? {
        index += 1
        var keys: Set<String> = []
        while true {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "}"):
                index += 1
                return nil
            case UInt8(ascii: ","):
                index += 1
            default:
                let key = string()
                guard keys.insert(key).inserted else { return key }
                skipWhitespace()
                index += 1  // the colon
                if let duplicate = value() { return duplicate }
            }
        }
    }

    private mutating func array() -> String? {
        index += 1
        while true {
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "]"):
                index += 1
                return nil
            case UInt8(ascii: ","):
                index += 1
            default:
                if let duplicate = value() { return duplicate }
            }
        }
    }

    /// Reads a string at `index` (its opening quote) and returns it decoded.
    private mutating func string() -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        var pendingHigh: UInt32?
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                raw.append(bytes[index])
                index += 1
                continue
            }
            flush()
            let escaped = bytes[index + 1]
            index += 2
            guard escaped == UInt8(ascii: "u") else {
                let plain: [UInt8: Unicode.Scalar] = [
                    UInt8(ascii: "b"): "\u{08}", UInt8(ascii: "f"): "\u{0C}", UInt8(ascii: "n"): "\n",
                    UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
                ]
                scalars.append(plain[escaped] ?? Unicode.Scalar(escaped))
                continue
            }
            let hex = String(decoding: bytes[index..<min(index + 4, bytes.count)], as: UTF8.self)
            index += 4
            let unit = UInt32(hex, radix: 16) ?? 0xFFFD
            // A surrogate pair (`\ud83d\ude00`) is one scalar; a lone surrogate, which JSONDecoder refuses, cannot come.
            if (0xD800...0xDBFF).contains(unit) {
                pendingHigh = unit
            } else if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) {
                scalars.append(Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (unit - 0xDC00)) ?? "\u{FFFD}")
                pendingHigh = nil
            } else {
                scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
            }
        }
        flush()
        index += 1  // the closing quote
        return String(scalars)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
