import Foundation
import MQTT
import Testing
import TestSupport

/// A command for a device that is offline is refused at once, unless its sender opted into waiting
/// with an MQTT 5 message expiry: then it runs when the device is back, or is answered `expired`.
@Suite(.serialized)
struct OfflineCommandTests {
    @Test func offlineCommandsFailAtOnceOrWaitUntilTheirExpiry() async throws {
        try await TestWorld.with { world in
            var belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let mark = recorder.mark
            belt.send(SIGKILL)
            _ = try await belt.waitForExit()
            try await recorder.waitFor("belt/\(id)/connection", after: mark) { $0.payloadString == "disconnected" }

            func send(_ payload: String, reply: String, expiry: UInt32?) throws {
                try recorder.client.publish(MQTTMessage(
                    topic: "belt/\(id)/cmd/vibrate", string: payload, qos: .atLeastOnce, responseTopic: reply, messageExpiry: expiry))
            }
            // No expiry: refused at once.
            try send(#"{"direction":10,"switch_to_app":true}"#, reply: "test/now", expiry: nil)
            #expect(try await recorder.waitFor("test/now").payloadString?.contains(#""code":"not_connected""#) == true)
            // A short expiry runs out while the belt is away.
            try send(#"{"direction":20,"switch_to_app":true}"#, reply: "test/short", expiry: 1)
            #expect(try await recorder.waitFor("test/short", timeout: .seconds(10)).payloadString?.contains(#""code":"expired""#) == true)
            // A long one waits, and runs once the belt is back.
            try send(#"{"direction":30,"switch_to_app":true}"#, reply: "test/long", expiry: 60)
            belt = try await world.startSimulator(["belt"])
            try await recorder.waitFor("belt/\(id)/connection", after: mark, timeout: .seconds(30)) { $0.payloadString == "connected" }
            let answer = try await recorder.waitFor("test/long", timeout: .seconds(30))
            #expect(answer.payloadString == #"{"command":"vibrate","ok":true}"#)
            try await belt.waitForLine { $0.hasPrefix("WRITE 0000fe03-0000-1000-8000-00805f9b34fb 0201aaaa0000031e00") }
            #expect(!belt.lines.contains { $0.text.hasPrefix("WRITE 0000fe03-0000-1000-8000-00805f9b34fb 0201aaaa0000031400") },
                    "the expired command never ran")
            await recorder.stop()
        }
    }

    /// Commands that wait for their device (the largest message expiry MQTT 5 carries) fill the device's queue
    /// only to its limit (1024): the rest are refused at once, and none of them is ever written.
    @Test func waitingCommandsFillTheDevicesQueueOnlyToItsLimit() async throws {
        // The rate limit out of the way: it alone would refuse most of these.
        let limits = try TemporaryConfiguration("limits: {command_rate: 10000, command_burst: 100000}\n")
        try await TestWorld.withConnectedBelt(bridgeArguments: ["--config", limits.path]) { _, connected in
            let (belt, id, recorder) = (connected.belt, connected.id, connected.recorder)
            let mark = recorder.mark
            belt.send(SIGKILL)
            _ = try await belt.waitForExit()
            try await recorder.waitFor("belt/\(id)/connection", after: mark) { $0.payloadString == "disconnected" }
            // The first is taken from the queue to wait (or not yet), 1024 wait behind it, the rest are refused.
            for index in 0..<1100 {
                try recorder.client.publish(MQTTMessage(
                    topic: "belt/\(id)/cmd/vibrate", string: #"{"direction":\#(index % 360),"switch_to_app":true,"transaction":"q\#(index)"}"#,
                    qos: .atLeastOnce, responseTopic: "test/queue", messageExpiry: UInt32.max))
            }
            // A barrier: the receive path handles messages in order, and this one is answered at once.
            let probe = recorder.mark
            try recorder.publish("belt/\(id)/cmd/vibrate", "not json", responseTopic: "test/probe")
            try await recorder.waitFor("test/probe", after: probe, timeout: .seconds(60))
            let refused = recorder.messages(on: "test/queue").filter { $0.payloadString?.contains("1024 commands already wait") == true }
            #expect((75...76).contains(refused.count), "\(refused.count) refused")
            #expect(recorder.messages(on: "test/queue").count == refused.count, "the others wait, unanswered")
        }
    }
}
