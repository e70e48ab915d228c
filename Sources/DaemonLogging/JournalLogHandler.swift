import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Writes log lines for the journal: each line begins with its priority (`<4>` for a warning) so that
/// `journalctl -p warning` finds it, and carries no timestamp, which the journal adds itself. journald reads each
/// line as an entry of its own, so a message is one line whatever it holds: its text and metadata are escaped
/// (`LogEscaping`), and a newline in them shows as `\n`.
public struct JournalLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let threshold: LogThreshold
    private let write: @Sendable (String) -> Void

    /// `threshold` is shared by every logger of the process, so a level changed at run time reaches all.
    public init(
        label: String, threshold: LogThreshold,
        write: @escaping @Sendable (String) -> Void = JournalLogHandler.writeToStandardError
    ) {
        self.label = label
        self.threshold = threshold
        self.write = write
    }

    public var logLevel: Logger.Level {
        get { threshold.level }
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
        write(Self.line(level: event.level, label: label, metadata: merged, message: "\(event.message)"))
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
