import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Writes log lines for the journal: each line begins with its priority (`<4>` for a warning) so that
/// `journalctl -p warning` finds it, and carries no timestamp, which the journal adds itself. journald reads each
/// line as an entry of its own, so a message is one line whatever it holds: its text and metadata are escaped
/// (`LogEscaping`), and a newline in them shows as `\n`. Every line is also offered to the `LogTap`, when there is one.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let threshold: LogThreshold
    private let tap: LogTap?
    private let write: @Sendable (String) -> Void

    /// `threshold` is shared by every logger of the process, so a level changed at run time reaches all; so is
    /// `tap`.
    public init(
        label: String, threshold: LogThreshold, tap: LogTap? = nil,
        write: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStandardError
    ) {
        self.label = label
        self.threshold = threshold
        self.tap = tap.flatMap { $0.takes(label) ? $0 : nil }
        self.write = write
    }

    /// The lower of the journal's level and the tap's, so that the tap gets its lines when it wants more than the
    /// journal; `log(event:)` writes only those at the journal's. Setting it sets the journal's.
    public var logLevel: Logger.Level {
        get { .lowest(threshold.level, tap?.level) }
        set { threshold.level = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let own = event.metadata { merged.merge(own) { _, new in new } }
        if event.level >= threshold.level {
            write(Self.line(level: event.level, label: label, metadata: merged, message: "\(event.message)"))
        }
        tap?.offer(level: event.level, label: label, message: "\(event.message)", metadata: merged)
    }

    /// The line written for one message, with its priority.
    public static func line(level: Logger.Level, label: String, metadata: Logger.Metadata, message: String) -> String {
        let fields =
            metadata.isEmpty
            ? ""
            : " "
                + LogEscaping.escaped(metadata).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                    separator: " ")
        return
            "<\(JournalPriority.of(level))>\(level) \(LogEscaping.escaped(label)):\(fields) \(LogEscaping.escaped(message))\n"
    }

    /// One write(2) a message, so that lines from several threads never interleave within a message.
    public static let writeToStandardError: @Sendable (String) -> Void = { text in
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
