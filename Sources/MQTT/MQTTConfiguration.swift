/// Which MQTT protocol version the client speaks.
public enum MQTTProtocolVersion: Sendable, Hashable {
    /// MQTT 3.1.1: no properties, no session expiry.
    case v311
    /// MQTT 5.0: properties, reason codes, session expiry.
    case v5
}

/// Files for a TLS connection (PEM).
public struct MQTTTLSConfiguration: Sendable, Hashable {
    /// CA certificate(s) to verify the broker with; nil trusts the operating system's store.
    public var caFile: String?
    /// Client certificate, for brokers that authenticate clients by certificate.
    public var certificateFile: String?
    /// Private key of `certificateFile`.
    public var keyFile: String?

    /// Creates a TLS configuration.
    public init(caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }
}

/// How long to wait between connection attempts.
///
/// Exponential: `initial`, doubled per failed attempt up to `maximum`, then shortened by a random
/// fraction up to `jitter` so that many bridges restarted together do not reconnect in lockstep.
public struct MQTTBackoff: Sendable, Hashable {
    /// The delay before the first retry.
    public var initial: Duration
    /// The longest delay.
    public var maximum: Duration
    /// The largest fraction (0…1) taken off a delay at random.
    public var jitter: Double

    /// Creates a backoff policy.
    public init(initial: Duration = .milliseconds(500), maximum: Duration = .seconds(30), jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay before attempt `attempt` (1 for the first retry), given a random number in 0..<1.
    public func delay(attempt: Int, random: Double) -> Duration {
        let doublings = min(max(attempt - 1, 0), 40)
        let base = min(seconds(initial) * Double(1 << UInt64(doublings)), seconds(maximum))
        let jittered = base * (1 - jitter * random)
        return .milliseconds(Int64((jittered * 1000).rounded()))
    }

    private func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

/// Everything needed to connect to one broker.
public struct MQTTConfiguration: Sendable {
    /// Broker host name or address.
    public var host: String
    /// Broker TCP port.
    public var port: Int
    /// Client identifier; must be unique per broker.
    public var clientID: String
    /// Protocol version; MQTT 5 by default because the bridge uses its properties.
    public var protocolVersion: MQTTProtocolVersion = .v5
    /// Keep-alive interval in seconds.
    public var keepAlive: Int = 30
    /// User name, if the broker requires one.
    public var username: String?
    /// Password for `username`.
    public var password: String?
    /// TLS files; nil for a plain TCP connection.
    public var tls: MQTTTLSConfiguration?
    /// The message the broker publishes when the client disappears without a DISCONNECT.
    public var will: MQTTMessage?
    /// Whether the broker discards any previous session on connect.
    public var cleanStart: Bool = true
    /// MQTT 5 session expiry interval in seconds (ignored with MQTT 3.1.1).
    public var sessionExpiry: UInt32?
    /// Delays between connection attempts.
    public var backoff = MQTTBackoff()
    /// How many incoming messages wait for the consumer before the oldest are dropped.
    public var incomingBufferSize: Int = 1024
    /// How many bytes (topics and payloads) incoming messages may take while they wait for the consumer: a
    /// message beyond it is dropped and counted (`MQTTStatistics.droppedMessages`). Nil: no limit.
    public var incomingBufferBytes: Int? = 64 << 20
    /// The largest packet the client takes: sent as Maximum Packet Size in CONNECT (MQTT 5), so that the broker
    /// does not send larger ones, and checked on every message before it is buffered (MQTT 3.1.1 has no such
    /// property): a larger payload is dropped and counted (`MQTTStatistics.oversizedMessages`). Nil: no limit.
    public var maximumPacketSize: Int?

    /// Creates a configuration for `host:port`.
    public init(host: String, port: Int = 1883, clientID: String = MQTTConfiguration.randomClientID()) {
        self.host = host
        self.port = port
        self.clientID = clientID
    }

    /// Parses `mqtt://HOST[:PORT]` (default port 1883) or `mqtts://HOST[:PORT]` (TLS against the
    /// system's CA store, default port 8883). `HOST` may be an IPv6 literal in brackets.
    public init(url: String, clientID: String = MQTTConfiguration.randomClientID()) throws {
        let endpoint = try BrokerURL(parsing: url)
        self.init(host: endpoint.host, port: endpoint.port, clientID: clientID)
        if endpoint.tls { tls = MQTTTLSConfiguration() }
    }

    /// A client identifier unlikely to collide with another client's.
    public static func randomClientID() -> String {
        "gatt2mqtt-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}
