import Logging

/// One log line as it leaves the process for another reader than standard error (the gateway's log topic): its
/// text escaped as the journal's is (`LogEscaping`) and cut to a size, so that a line in a queue is bounded and a
/// stranger's long value cannot make a large message of it.
///
/// Nothing in it is replaced. Secrets are kept out of log lines where the lines are made (no password or token is
/// ever interpolated into one); text that came from outside (a topic, a payload's value) is as it came. Replacing
/// each secret wherever it showed up made an oracle: a command whose text held the broker's or the page's password
/// came back as `<redacted>` in the log topic, and a wrong guess did not, so whoever could send commands and read
/// the log learnt which guess was right.
public struct LogRecord: Sendable, Equatable {
    public var level: Logger.Level
    public var label: String
    public var message: String
    public var metadata: [String: String]

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

    /// The record of a line as it was logged, its metadata as the handler merged it: each text escaped, then cut.
    init(level: Logger.Level, label: String, message: String, logged metadata: Logger.Metadata) {
        func clean(_ text: String, _ limit: Int) -> String {
            Self.cut(LogEscaping.escaped(text), to: limit)
        }
        var fields: [String: String] = [:]
        for key in metadata.keys.sorted().prefix(Self.entryLimit) {
            fields[clean(key, Self.valueLimit)] = clean("\(metadata[key]!)", Self.valueLimit)
        }
        self.init(
            level: level, label: clean(label, Self.valueLimit), message: clean(message, Self.messageLimit),
            metadata: fields)
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
