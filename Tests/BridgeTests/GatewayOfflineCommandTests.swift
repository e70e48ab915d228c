import MQTT
import Peripherals
import Testing

@testable import Bridge

/// A command for a device that is offline, whole but in memory (`InMemoryGateway`): refused at once, unless its
/// sender opted into waiting with an MQTT 5 message expiry; then it runs when the device is back, or is answered
/// `expired`, and waiting commands fill the device's queue only to its limit.
@Suite(.timeLimit(.minutes(1))) struct GatewayOfflineCommandTests {
    /// The belt connected, then out of range: its session says `disconnected` and keeps trying.
    private func beltGoneAway(_ gateway: InMemoryGateway) async -> (belt: InMemoryLink, id: String) {
        let belt = InMemoryDevices.belt()
        let id = await gateway.connect(belt, family: "belt")
        let mark = gateway.probe.mark
        await belt.setReachable(false)
        await gateway.central.dropLink(of: belt.device.path)
        await gateway.probe.next(on: "belt/\(id)/connection", after: mark) { $0 == "disconnected" }
        return (belt, id)
    }

    private func vibrate(_ gateway: InMemoryGateway, _ id: String, _ payload: String, reply: String, expiry: UInt32?)
        throws
    {
        try gateway.publish(
            MQTTMessage(
                topic: "belt/\(id)/cmd/vibrate", string: payload, qos: .atLeastOnce, responseTopic: reply,
                messageExpiry: expiry))
    }

    @Test func offlineCommandsFailAtOnceOrWaitUntilTheirExpiry() async throws {
        try await InMemoryGateway.with { gateway in
            let (belt, id) = await beltGoneAway(gateway)
            // No expiry: refused at once.
            try vibrate(gateway, id, #"{"direction":10,"switch_to_app":true}"#, reply: "reply/test/now", expiry: nil)
            #expect(
                await gateway.probe.next(on: "reply/test/now").payloadString?.contains(#""code":"not_connected""#)
                    == true)
            // A short expiry runs out while the belt is away.
            try vibrate(gateway, id, #"{"direction":20,"switch_to_app":true}"#, reply: "reply/test/short", expiry: 1)
            #expect(
                await gateway.probe.next(on: "reply/test/short").payloadString?.contains(#""code":"expired""#) == true)
            // A long one waits, and runs once the belt is back.
            let before = await belt.writes.count
            try vibrate(gateway, id, #"{"direction":30,"switch_to_app":true}"#, reply: "reply/test/long", expiry: 60)
            await belt.setReachable(true)
            #expect(
                await gateway.probe.next(on: "reply/test/long").payloadString == #"{"command":"vibrate","ok":true}"#)
            let played = await belt.writes.dropFirst(before).filter {
                $0.characteristic == BeltGATT.Characteristic.vibrationCommand
            }.map(\.bytes.hex)
            #expect(played.contains { $0.hasPrefix("0201aaaa0000031e00") }, "direction 30 played: \(played)")
            #expect(!played.contains { $0.hasPrefix("0201aaaa0000031400") }, "the expired command never ran")
        }
    }

    /// Commands that wait for their device (the largest message expiry MQTT 5 carries) fill the device's queue
    /// only to its limit (1024): the rest are refused at once, and none of them is ever written.
    @Test func waitingCommandsFillTheDevicesQueueOnlyToItsLimit() async throws {
        // The rate limit out of the way: it alone would refuse most of these.
        try await InMemoryGateway.with(configure: { $0.commandRate = (perSecond: 10_000, burst: 100_000) }) { gateway in
            let (belt, id) = await beltGoneAway(gateway)
            let before = await belt.writes.count
            // The first is taken from the queue to wait (or not yet), 1024 wait behind it, the rest are refused.
            for index in 0..<1100 {
                try vibrate(
                    gateway, id, #"{"direction":\#(index % 360),"switch_to_app":true,"transaction":"q\#(index)"}"#,
                    reply: "reply/test/queue", expiry: UInt32.max)
            }
            // A barrier: the receive path handles messages in order, and this one is answered at once.
            try gateway.publish("belt/\(id)/cmd/vibrate", "not json", responseTopic: "reply/test/probe")
            await gateway.probe.next(on: "reply/test/probe")
            let answered = gateway.probe.payloads(on: "reply/test/queue")
            let refused = answered.filter { $0.contains("1024 commands already wait") }
            #expect((75...76).contains(refused.count), "\(refused.count) refused")
            #expect(answered.count == refused.count, "the others wait, unanswered")
            #expect(await belt.writes.count == before, "none was written")
        }
    }
}
