import Locks
import TestSupport
import Testing

@testable import Bridge

/// One device's own intervals (`devices.intervals`) as a connection's periodic work follows them: started at the
/// device's interval, started again at once when it changes, and left alone when it ended.
struct DeviceIntervalsTests {
    /// Paces `battery` by `battery_s` in `scope`; answered when it first runs.
    @discardableResult
    private func pace(
        _ intervals: DeviceIntervals, in scope: ConnectionScope, standard: Duration
    ) -> FirstAnswer<Void> {
        let ran = FirstAnswer<Void>()
        intervals.pace("battery", by: "battery_s", standard: standard) { interval, replacing in
            scope.repeating("battery", every: interval, onlyReplacing: replacing) { ran.answer(()) }
        }
        return ran
    }

    /// An hour's standard interval: any run within the test's bound is the device's own interval at work.
    @Test func workStartsAtTheDevicesIntervalAndFollowsAChangeAtOnce() async throws {
        let scope = ConnectionScope()
        let chosen = DeviceIntervals(["battery_s": .milliseconds(20)])
        let ran = pace(chosen, in: scope, standard: .seconds(3600))
        try await withTimeout(.seconds(30), "a run at the device's interval") { await ran.value }

        let changed = DeviceIntervals()
        let later = pace(changed, in: scope, standard: .seconds(3600))
        changed.set(["signal_s": .milliseconds(20)])
        #expect(scope.isRunning("battery"), "another setting's change leaves the work as it was")
        changed.set(["battery_s": .milliseconds(20), "signal_s": .milliseconds(20)])
        try await withTimeout(.seconds(30), "a run at the changed interval, not after the hour") {
            await later.value
        }
        #expect(await scope.close())
    }

    /// Work that was cancelled (an Activ5's keep-alive once evergreen is off) or whose link ended is not started
    /// again by a change.
    @Test func aChangeRestartsNoWorkThatEnded() async {
        let scope = ConnectionScope()
        let intervals = DeviceIntervals()
        pace(intervals, in: scope, standard: .seconds(3600))
        scope.cancel("battery")
        intervals.set(["battery_s": .milliseconds(20)])
        #expect(!scope.isRunning("battery"))

        pace(intervals, in: scope, standard: .seconds(3600))
        #expect(scope.isRunning("battery"))
        #expect(await scope.close())
        intervals.set(["battery_s": .seconds(60)])
        #expect(!scope.isRunning("battery"), "a closed connection's work stays ended")
    }
}
