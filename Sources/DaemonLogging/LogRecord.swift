import Logging

/// One log line as it leaves the process for another reader than standard error (the gateway's log topic): its
/// text escaped as the journal's is (`LogEscaping`), any secret of the configuration replaced, and cut to a size,
/// so that a line in a queue is bounded and a stranger's long value cannot make a large message of it.
public struct LogRecord: Sendable, Equatable {
    public var level: Logger.Level
    public var label: String
    public var message: String
    public var metadata: [String: String]

    /// What a secret becomes, as in `--print-config`.
    public static let redacted = "<redacted>"
    /// The message's largest size in UTF-8 bytes, its cut mark included.
    public static let messageLimit = 4096
    /// Each metadata value's largest size in UTF-8 bytes (a key's is the same), its cut mark included.
    public static let valueLimit = 512
    /// Metadata entries kept, the first in key order; the gateway's lines carry a handful.
    public static let entryLimit = 16
    /// Put where text was cut.
    public static let cutMark = "…"

    public init(level: Logger.Level, label: String, message: String, metadata: [String: String]) {
        self.level = level
        self.label = label
        self.message = message
        self.metadata = metadata
    }

    /// The record of a line: each text with `secrets` replaced first (so that a secret's escaped spelling never
    /// shows either), then escaped, then cut.
    init(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, secrets: [String]) {
        func clean(_ text: String, _ limit: Int) -> String {
            Self.cut(LogEscaping.escaped(Self.redacting(secrets, in: text)), to: limit)
        }
        var fields: [String: String] = [:]
        for key in metadata.keys.sorted().prefix(Self.entryLimit) {
            fields[clean(key, Self.valueLimit)] = clean("\(metadata[key]!)", Self.valueLimit)
        }
        self.init(
            level: level, label: clean(label, Self.valueLimit), message: clean(message, Self.messageLimit),
            metadata: fields)
    }

    /// `text` with every occurrence of each secret replaced by `redacted`: as it is, and as Swift quotes it inside
    /// a list or dictionary value (`debugDescription`, which escapes `\\`, `"` and control characters).
    static func redacting(_ secrets: [String], in text: String) -> String {
        var text = text
        for secret in secrets where !secret.isEmpty {
            let quoted = String(secret.debugDescription.dropFirst().dropLast())
            for spelling in Set([secret, quoted]) where text.contains(spelling) {
                text = text.replacing(spelling, with: redacted)
            }
        }
        return text
    }

    /// `text` at most `limit` UTF-8 bytes long, cut between Unicode scalars with `cutMark` at the end when cut.
    static func cut(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let room = limit - cutMark.utf8.count
        var kept = String.UnicodeScalarView()
        var size = 0
        for scalar in text.unicodeScalars {
            size += UTF8.width(scalar)
            if size > room { break }
            kept.append(scalar)
        }
        return String(kept) + cutMark
    }
}
