import Logging

/// Makes text from outside (a device's name, a topic, a payload's field, a D-Bus error) safe to log: one entry
/// stays one line, and nothing reaches a terminal as a control sequence.
///
/// The escapes, in Swift's own spelling so that a reader knows them:
/// - `\` becomes `\\`, so that no text can forge one of the escapes below;
/// - line feed, carriage return and tab become `\n`, `\r`, `\t`;
/// - every other C0 control (U+0000–U+001F), DEL (U+007F), the C1 controls (U+0080–U+009F) and the Unicode line
///   and paragraph separators (U+2028, U+2029) become `\u{XX}`, the code point in upper-case hex (ESC is `\u{1B}`).
///
/// Everything else, other Unicode included, is left as it is.
public enum LogEscaping {
    public static func escaped(_ text: String) -> String {
        // Most lines hold nothing to escape: keep them as they are, without copying.
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// Every key and value escaped; a list or a dictionary is escaped as the text it prints as.
    public static func escaped(_ metadata: Logger.Metadata) -> Logger.Metadata {
        var out: Logger.Metadata = [:]
        for (key, value) in metadata {
            out[escaped(key)] = .string(escaped("\(value)"))
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x5C: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\\": #"\\"#
        case "\n": #"\n"#
        case "\r": #"\r"#
        case "\t": #"\t"#
        default: #"\u{"# + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }
}
