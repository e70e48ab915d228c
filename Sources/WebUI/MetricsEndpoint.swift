import Bridge
import Locks
import Metrics
import Prometheus

/// `/metrics` in the Prometheus text format. Command timings reach the registry through swift-metrics as
/// they happen; the bridge's totals (messages, notifications, decode errors, reconnects) are read at each
/// scrape and carried into the registry's counters, so a scrape is exact and the hot path counts as before.
public final class MetricsEndpoint: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let counters: @Sendable () -> GatewayCounters
    /// What each counter (name and labels) was last carried up to, the session states shown, and the
    /// devices with series of their own.
    private struct Carried {
        var totals: [String: Int] = [:]
        var states: Set<String> = []
        var devices: Set<String> = []
    }

    private let carried = Mutex(Carried())

    /// The per-device counters: name and help.
    private static let deviceCounters = [
        ("device_notifications", "GATT notifications per device"),
        ("device_decode_errors", "Malformed notifications per device"),
        ("device_reconnects", "Links per device after the first"),
    ]

    public init(registry: PrometheusCollectorRegistry, counters: @escaping @Sendable () -> GatewayCounters) {
        self.registry = registry
        self.counters = counters
    }

    /// Makes swift-prometheus the process's swift-metrics backend (once per process) and an endpoint on it.
    public static func bootstrap(counters: @escaping @Sendable () -> GatewayCounters) -> MetricsEndpoint {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Commands take from under a millisecond (refused) to seconds (a belt's confirmation timeout).
        factory.durationHistogramBuckets["gatt2mqtt_command_duration_seconds"] = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        return MetricsEndpoint(registry: registry, counters: counters)
    }

    public func render() -> [UInt8] {
        let now = counters()
        carried.withLock { carried in
            func key(_ name: String, _ labels: [(String, String)]) -> String {
                name + labels.map { "|\($0.0)=\($0.1)" }.joined()
            }
            func total(_ name: String, _ help: String, _ value: Int, labels: [(String, String)] = []) {
                let key = key(name, labels)
                let counter = registry.makeCounter(descriptor: Self.name(name, "total", help), labels: labels)
                let delta = value - carried.totals[key, default: 0]
                if delta > 0 { counter.increment(by: Int64(delta)) }
                carried.totals[key] = max(value, carried.totals[key, default: 0])
            }
            total("mqtt_messages_received", "MQTT messages the bridge received", now.messagesIn)
            total("mqtt_messages_published", "MQTT messages the bridge published", now.messagesOut)
            total("mqtt_messages_dropped", "Incoming MQTT messages dropped for want of buffer", now.droppedMessages)
            total(
                "mqtt_messages_oversized", "Incoming MQTT messages over the size limit, refused or dropped unread",
                now.oversizedMessages
            )
            total("broker_reconnects", "Connections to the broker after the first", now.brokerReconnects)
            total(
                "notifications_dropped", "Device values dropped because publishing fell behind",
                now.droppedNotifications)
            total(
                "fleet_claims_refused", "Fleet claims dropped: malformed, or naming another gateway than their topic",
                now.refusedClaims)
            for (device, counts) in now.devices.sorted(by: { $0.key < $1.key }) {
                let values = [counts.notifications, counts.decodeErrors, counts.reconnects]
                for ((name, help), value) in zip(Self.deviceCounters, values) {
                    total(name, help, value, labels: [("device", device)])
                }
            }
            // A device the bridge no longer counts (its counter made room for others: the bridge's tables are
            // bounded) loses its series rather than keeping them for ever.
            for device in carried.devices.subtracting(now.devices.keys) {
                for (name, help) in Self.deviceCounters {
                    let labels = [("device", device)]
                    registry.unregisterCounter(
                        registry.makeCounter(descriptor: Self.name(name, "total", help), labels: labels))
                    carried.totals[key(name, labels)] = nil
                }
            }
            carried.devices = Set(now.devices.keys)
            // A state no session is in any more reads 0 rather than vanishing.
            carried.states.formUnion(now.sessions.keys)
            for state in carried.states.sorted() {
                registry.makeGauge(
                    descriptor: Self.name("sessions", "", "Sessions by connection state"), labels: [("state", state)]
                )
                .set(to: Double(now.sessions[state] ?? 0))
            }
        }
        if let resident = now.residentBytes {
            registry.makeGauge(
                descriptor: MetricNameDescriptor(
                    namespace: "process", metricName: "resident_memory", unitName: "bytes",
                    helpText: "Resident memory size in bytes")
            )
            .set(to: Double(resident))
        }
        registry.makeGauge(descriptor: Self.name("uptime", "seconds", "Seconds since the bridge started")).set(
            to: now.uptimeSeconds)
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    /// `gatt2mqtt_<name>_<unit>`.
    private static func name(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "gatt2mqtt", metricName: name, unitName: unit, helpText: help)
    }
}
