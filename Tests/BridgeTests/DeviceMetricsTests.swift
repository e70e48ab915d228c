import Testing

@testable import Bridge

struct DeviceMetricsTests {
    /// Counters of devices whose sessions ended make room once the limit is reached; held ones never do.
    @Test func countersNoSessionHoldsMakeRoomAtTheLimit() {
        let metrics = DeviceMetrics(limit: 2)
        let held = metrics.counter(for: "belt/a")
        held.notifications.add(3, ordering: .relaxed)
        _ = metrics.counter(for: "belt/b")
        metrics.release("belt/b")
        #expect(
            Set(metrics.snapshot.keys) == ["belt/a", "belt/b"], "an ended session's counter stays while there is room")

        _ = metrics.counter(for: "belt/c")
        #expect(Set(metrics.snapshot.keys) == ["belt/a", "belt/c"])
        #expect(metrics.snapshot["belt/a"]?.notifications == 3)

        // Every counter held: the table grows past the limit rather than dropping a live session's counts.
        _ = metrics.counter(for: "belt/d")
        #expect(Set(metrics.snapshot.keys) == ["belt/a", "belt/c", "belt/d"])
    }

    /// A device that connects again while its counter is kept counts on from where it was.
    @Test func aReturningDeviceCountsOn() {
        let metrics = DeviceMetrics(limit: 4)
        metrics.counter(for: "a5/x").connects.add(1, ordering: .relaxed)
        metrics.release("a5/x")
        metrics.counter(for: "a5/x").connects.add(1, ordering: .relaxed)
        #expect(metrics.snapshot["a5/x"]?.connects == 2)
    }

    /// Thousands of spoofed devices, each with a session that ends: the table stays at its limit.
    @Test func spoofedDevicesStayBounded() {
        let metrics = DeviceMetrics()
        for index in 0..<5000 {
            let key = DeviceMetrics.key(.belt, String(index))
            _ = metrics.counter(for: key)
            metrics.release(key)
        }
        #expect(metrics.snapshot.count <= DeviceMetrics.defaultLimit)
    }
}
