import Prometheus
import Testing

@testable import Bridge
@testable import WebUI

struct MetricsEndpointTests {
    final class Source: @unchecked Sendable {
        // Only the test's own task touches it, between renders.
        var counters = GatewayCounters(
            messagesIn: 3, messagesOut: 10, brokerReconnects: 0, droppedMessages: 0, droppedNotifications: 0,
            sessions: ["connected": 1], devices: ["belt/abc": .init(notifications: 5, decodeErrors: 1, reconnects: 0)],
            residentBytes: 1_048_576, uptimeSeconds: 12)
    }

    private func lines(_ endpoint: MetricsEndpoint) -> [String] {
        String(decoding: endpoint.render(), as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func aScrapeShowsTheTotalsAsTheyAreNow() {
        let source = Source()
        let endpoint = MetricsEndpoint(registry: PrometheusCollectorRegistry(), counters: { source.counters })
        var text = lines(endpoint)
        #expect(text.contains("gatt2mqtt_mqtt_messages_published_total 10"))
        #expect(text.contains(#"gatt2mqtt_device_notifications_total{device="belt/abc"} 5"#))
        #expect(text.contains(#"gatt2mqtt_device_decode_errors_total{device="belt/abc"} 1"#))
        #expect(text.contains(#"gatt2mqtt_sessions{state="connected"} 1.0"#))
        #expect(text.contains("process_resident_memory_bytes 1048576.0"))
        #expect(text.contains("# TYPE gatt2mqtt_device_notifications_total counter"))

        source.counters.messagesOut = 25
        source.counters.devices["belt/abc"]?.notifications = 9
        source.counters.sessions = ["connecting": 1]
        text = lines(endpoint)
        #expect(text.contains("gatt2mqtt_mqtt_messages_published_total 25"))
        #expect(text.contains(#"gatt2mqtt_device_notifications_total{device="belt/abc"} 9"#))
        // A state no session is in reads 0 rather than keeping its last value.
        #expect(text.contains(#"gatt2mqtt_sessions{state="connected"} 0.0"#))
        #expect(text.contains(#"gatt2mqtt_sessions{state="connecting"} 1.0"#))
    }

    /// A device the bridge stops counting (its counter made room for others) loses its series; one that comes
    /// back starts again from what the bridge counts.
    @Test func aDeviceNoLongerCountedLosesItsSeries() {
        let source = Source()
        source.counters.devices["belt/def"] = .init(notifications: 7, decodeErrors: 0, reconnects: 2)
        let endpoint = MetricsEndpoint(registry: PrometheusCollectorRegistry(), counters: { source.counters })
        #expect(lines(endpoint).contains(#"gatt2mqtt_device_reconnects_total{device="belt/def"} 2"#))

        source.counters.devices["belt/def"] = nil
        var text = lines(endpoint)
        #expect(!text.contains { $0.contains(#"device="belt/def""#) }, "\(text)")
        #expect(text.contains(#"gatt2mqtt_device_notifications_total{device="belt/abc"} 5"#))

        source.counters.devices["belt/def"] = .init(notifications: 1, decodeErrors: 0, reconnects: 0)
        text = lines(endpoint)
        #expect(text.contains(#"gatt2mqtt_device_notifications_total{device="belt/def"} 1"#))
    }
}
