/// Why an MQTT operation failed.
public enum MQTTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`.
    case invalidURL(String, reason: String)
    /// The configuration was rejected before any network traffic (e.g. a missing TLS file).
    case invalidConfiguration(String)
    /// The broker answered CONNACK with a failure (bad credentials, not authorised, …).
    case connectionRefused(reason: String)
    /// The TLS handshake failed.
    case tls(String)
    /// No CONNACK arrived in time; `lastError` says what the last attempt ran into, if anything.
    case timeout(lastError: String?)
    /// A non-retained QoS 0 message could not be sent because there is no connection.
    case notConnected
    /// The client was stopped.
    case stopped
    /// libmosquitto rejected the call.
    case library(operation: String, code: Int32, message: String)

    /// A sentence for logs and test failures.
    public var description: String {
        switch self {
        case .invalidURL(let url, let reason): "invalid MQTT URL '\(url)': \(reason)"
        case .invalidConfiguration(let reason): "invalid MQTT configuration: \(reason)"
        case .connectionRefused(let reason): "broker refused the connection: \(reason)"
        case .tls(let reason): "TLS failure: \(reason)"
        case .timeout(let lastError): "timed out waiting for CONNACK" + (lastError.map { " (last error: \($0))" } ?? "")
        case .notConnected: "not connected to the broker"
        case .stopped: "the MQTT client was stopped"
        case .library(let operation, let code, let message): "\(operation) failed (\(code)): \(message)"
        }
    }
}

extension MQTTError {
    /// A refusal (bad credentials, not authorised) or a TLS failure: retrying will not help.
    public var isPermanent: Bool {
        switch self {
        case .connectionRefused, .tls, .invalidURL, .invalidConfiguration: true
        default: false
        }
    }
}
