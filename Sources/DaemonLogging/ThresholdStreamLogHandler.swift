import Logging

/// swift-log's standard-error handler, as on a terminal before, but following the shared `LogThreshold`, and with
/// the message and every metadata key and value escaped (`LogEscaping`): one entry is one line.
public struct ThresholdStreamLogHandler: LogHandler {
    /// Writes what this handler has escaped; it keeps no metadata or provider of its own, which would reach the
    /// line unescaped.
    private let stream: StreamLogHandler
    private let threshold: LogThreshold
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String, threshold: LogThreshold) {
        self.init(
            StreamLogHandler.standardError(label: LogEscaping.escaped(label), metadataProvider: nil),
            threshold: threshold)
    }

    /// Writes to `stream` instead of standard error (a test reads what was written).
    public init(label: String, threshold: LogThreshold, stream: any TextOutputStream & Sendable) {
        self.init(
            StreamLogHandler(label: LogEscaping.escaped(label), stream: stream, metadataProvider: nil),
            threshold: threshold)
    }

    private init(_ stream: StreamLogHandler, threshold: LogThreshold) {
        self.stream = stream
        self.threshold = threshold
        metadataProvider = LoggingSystem.metadataProvider
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
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var escaped = event
        escaped.message = "\(LogEscaping.escaped("\(event.message)"))"
        escaped.metadata = LogEscaping.escaped(merged)
        escaped.error = nil
        // The threshold was checked by Logger against `logLevel`; the stream handler's own copy is not consulted.
        stream.log(event: escaped)
    }
}
