import Testing

@testable import Bridge

struct HealthReportTests {
    @Test func ratesAreDeltasOverTheIntervalAndReconnectsCountAfterTheFirstConnect() {
        let start = ContinuousClock.now
        var before = DeviceMetrics.Counters()
        before.notifications = 100
        var after = DeviceMetrics.Counters()
        after.notifications = 300
        after.decodeErrors = 2
        after.connects = 3
        let report = HealthReport.json(
            previous: .init(time: start, messagesIn: 10, messagesOut: 50, brokerReconnects: 0, devices: ["belt/a": before]),
            current: .init(time: start + .seconds(10), messagesIn: 30, messagesOut: 250, brokerReconnects: 1,
                droppedNotifications: 3, devices: ["belt/a": after]),
            uptime: .seconds(42), residentBytes: 8_000_000)
        #expect(report.text == #"{"broker_reconnects":1,"decode_errors":2,"devices":{"belt/a":{"decode_errors":2,"notifications_per_s":20,"reconnects":2}},"dropped_messages":0,"dropped_notifications":3,"messages_in_per_s":2,"messages_out_per_s":20,"rss_bytes":8000000,"uptime_s":42}"#)
    }

    @Test func residentMemoryIsReadFromProc() {
        let bytes = HealthReport.residentBytes()
        #expect(bytes.map { $0 > 1_000_000 } == true)
    }
}
