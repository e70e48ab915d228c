import Testing

@testable import Bridge

struct HealthReportTests {
    @Test func ratesAreDeltasOverTheIntervalAndReconnectsCountAfterTheFirstConnect() {
        let start = ContinuousClock.now
        var earlier = DeviceMetrics.Counters()
        earlier.notifications = 100
        var later = DeviceMetrics.Counters()
        later.notifications = 300
        later.decodeErrors = 2
        later.connects = 3
        let before = GatewayCounters(
            messagesIn: 10, messagesOut: 50, brokerReconnects: 0, droppedMessages: 0, droppedNotifications: 0,
            sessions: [:],
            devices: ["belt/a": .init(earlier)], residentBytes: 7_000_000, uptimeSeconds: 32)
        let after = GatewayCounters(
            messagesIn: 30, messagesOut: 250, brokerReconnects: 1, droppedMessages: 0, droppedNotifications: 3,
            refusedClaims: 4,
            sessions: ["connected": 1],
            devices: ["belt/a": .init(later)], residentBytes: 8_000_000, uptimeSeconds: 42)
        let report = HealthReport.json(
            previous: .init(time: start, counters: before), current: .init(time: start + .seconds(10), counters: after))
        #expect(
            report.text
                == #"{"broker_reconnects":1,"decode_errors":2,"devices":{"belt/a":{"decode_errors":2,"notifications_per_s":20,"reconnects":2}},"dropped_messages":0,"dropped_notifications":3,"messages_in_per_s":2,"messages_out_per_s":20,"oversized_messages":0,"refused_claims":4,"rss_bytes":8000000,"uptime_s":42,"version":""#
                + Gatt2MQTTVersion.current + #""}"#)
    }

    @Test func residentMemoryIsReadFromProc() {
        let bytes = HealthReport.residentBytes()
        #expect(bytes.map { $0 > 1_000_000 } == true)
    }
}
