import BlueZ
import Locks
import Testing

@testable import Bridge

/// The one path of every family's stream: a lane takes values only while live, publishes what it makes
/// of them in their turn, counts and logs what does not decode, hands what its stream declines (an answer) on once,
/// unreduced again, and everything before it is live to the session.
struct TelemetryLaneTests {
    private struct Malformed: Error {}

    private let sink = RecordingSink()
    private let metrics = DeviceMetrics()
    /// What the lane handed on as declined, in order.
    private final class Declined: Sendable {
        let values = Mutex<[[UInt8]]>([])
    }
    private let declined = Declined()
    private let link = InMemoryLink(
        device: BlueZDevice(address: "00:11:22:33:44:55", name: nil), services: [], values: [:])

    /// A lane whose state counts the values it took, and publishes each as `<count>:<first byte>`.
    private func counting() -> (TelemetryLane<Int>, NotificationLane) {
        let context = InMemorySession<ProfileSession<GripFamilyProfile>>.context(
            link: link, sink: sink, id: "lane", driver: GripDriver(profile: .placeholder), metrics: metrics)
        let core = SessionCore(device: link.device, context: context, family: .grip)
        let lane = TelemetryLane(core: core, state: 0)
        let declined = declined
        return (
            lane,
            lane.lane(
                for: "fff1",
                { count, bytes in
                    guard let first = bytes.first else { throw Malformed() }
                    guard first != 0xAA else { return nil }  // an answer: not this stream's
                    count += 1
                    return [Publication(topic: "grip/lane/event", payload: "\(count):\(first)")]
                },
                declined: { bytes in declined.values.withLock { $0.append(bytes) } })
        )
    }

    private var counters: (notifications: Int, decodeErrors: Int) {
        let snapshot = metrics.snapshot["grip/lane"]
        return (snapshot?.notifications ?? 0, snapshot?.decodeErrors ?? 0)
    }

    @Test func beforeGoingLiveAndAfterStoppingEveryValueGoesToTheSession() {
        let (lane, take) = counting()
        #expect(take([1]) == false)
        lane.goLive()
        #expect(take([2]) == true)
        lane.stop { $0 = 0 }
        #expect(take([3]) == false)
        #expect(lane.withState { $0 } == 0)
        #expect(sink.payloads(on: "grip/lane/event") == ["1:2"])
        #expect(counters.notifications == 1)
    }

    @Test func liveValuesArePublishedInOrderAndAnswersAreDeclined() {
        let (lane, take) = counting()
        lane.goLive()
        #expect(take([7]) == true)
        #expect(take([0xAA, 1]) == true, "taken: handed on as declined, not to the session to reduce again")
        #expect(take([8]) == true)
        #expect(sink.payloads(on: "grip/lane/event") == ["1:7", "2:8"])
        #expect(declined.values.withLock { $0 } == [[0xAA, 1]])
        #expect(counters.notifications == 3)
    }

    @Test func malformedBytesAreCountedInTheirTurnAndPublishedNowhere() {
        let (lane, take) = counting()
        lane.goLive()
        #expect(take([]) == true)
        #expect(counters == (1, 1))
        #expect(sink.messages.isEmpty)
        lane.publish { count in
            count += 10
            return [Publication(topic: "grip/lane/event", payload: "session \(count)")]
        }
        #expect(sink.payloads(on: "grip/lane/event") == ["session 10"])
    }
}
