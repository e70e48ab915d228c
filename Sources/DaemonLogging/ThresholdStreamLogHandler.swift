import Logging

/// swift-log's standard-error handler, as on a terminal before, but following the shared `LogThreshold`, and with
/// the message and every metadata key and value escaped (`LogEscaping`): one entry is one line. Every line is also
/// offered to the `LogTap`, when there is one.
public struct ThresholdStreamLogHandler: LogHandler {
    /// Writes what this handler has escaped; it keeps no metadata or provider of its own, which would reach the
    /// line unescaped.
    private let stream: StreamLogHandler
    private let threshold: LogThreshold
    private let label: String
    private let tap: LogTap?
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String, threshold: LogThreshold, tap: LogTap? = nil) {
        self.init(
            StreamLogHandler.standardError(label: LogEscaping.escaped(label), metadataProvider: nil),
            label: label, threshold: threshold, tap: tap)
    }

    /// Writes to `stream` instead of standard error (a test reads what was written).
    public init(label: String, threshold: LogThreshold, tap: LogTap? = nil, stream: any TextOutputStream & Sendable) {
        self.init(
            StreamLogHandler(label: LogEscaping.escaped(label), stream: stream, metadataProvider: nil),
            label: label, threshold: threshold, tap: tap)
    }

    private init(_ stream: StreamLogHandler, label: String, threshold: LogThreshold, tap: LogTap?) {
        self.stream = stream
        self.label = label
        self.threshold = threshold
        self.tap = tap.flatMap { $0.takes(label) ? $0 : nil }
        metadataProvider = LoggingSystem.metadataProvider
    }

    /// The lower of the stream's level and the tap's, as `JournalLogHandler`'s; setting it sets the stream's.
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
        tap?.offer(level: event.level, label: label, message: "\(event.message)", metadata: merged)
        guard event.level >= threshold.level else { return }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var escaped = event
        escaped.message = "\(LogEscaping.escaped("\(event.message)"))"
        escaped.metadata = LogEscaping.escaped(merged)
        escaped.error = nil
        // The threshold was checked above; the stream handler's own copy is not consulted.
        stream.log(event: escaped)
    }
}
