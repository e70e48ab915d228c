import Logging

/// swift-log's standard-error handler, as on a terminal before, but following the shared `LogThreshold`.
public struct ThresholdStreamLogHandler: LogHandler {
    private var stream: StreamLogHandler
    private let threshold: LogThreshold

    public init(label: String, threshold: LogThreshold) {
        stream = StreamLogHandler.standardError(label: label)
        self.threshold = threshold
    }

    public var logLevel: Logger.Level {
        get { threshold.level }
        set { threshold.level = newValue }
    }

    public var metadata: Logger.Metadata {
        get { stream.metadata }
        set { stream.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { stream[metadataKey: key] }
        set { stream[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        // The threshold was checked by Logger against `logLevel`; the stream handler's own copy is not consulted.
        stream.log(event: event)
    }
}
