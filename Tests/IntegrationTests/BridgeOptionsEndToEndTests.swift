import Foundation
import MQTT
import Locks
import Testing
import TestSupport

/// Bridge options end to end, through mosquitto, BlueZoo and virtual belts: the command rate limit, the
/// bridge on MQTT 3.1.1, and `--allow`. None depends on BlueZ's behaviour, so BlueZoo alone runs them.
@Suite(.serialized)
struct BridgeOptionsEndToEndTests {
    /// More commands than `limits.command_rate` allows after its burst: the excess is refused with
    /// `rate_limited` and never written; every admitted one is.
    @Test func commandsBeyondTheRateLimitAreRefusedWithoutAWrite() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("g2m-\(UUID().uuidString.prefix(8)).yaml").path
            try "limits:\n  command_rate: 1\n  command_burst: 3\n".write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge(extraArguments: ["--config", file])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }

            let before = belt.lineCount
            for channel in 0..<8 { try recorder.publish("belt/\(id)/cmd/stop", #"{"channel":\#(channel % 4)}"#, responseTopic: "test/rate/\(channel)") }
            var answers: [String] = []
            for channel in 0..<8 { answers.append(try await recorder.waitFor("test/rate/\(channel)").payloadString ?? "") }
            let refused = answers.filter { $0.contains(#""code":"rate_limited""#) }
            let admitted = answers.filter { $0 == #"{"command":"stop","ok":true}"# }
            #expect(admitted.count + refused.count == 8, "\(answers)")
            #expect(refused.count >= 4, "a burst of 3 and 1 per second leave at most 4 of 8 through: \(answers)")
            // The belt's output may trail the replies: count its vibration writes as they come.
            let written = Mutex(0)
            try await belt.waitForLine(after: before) { line in
                line.hasPrefix("WRITE 0000fe03") && written.withLock { $0 += 1; return $0 } == admitted.count
            }
            #expect(belt.lines.dropFirst(before).filter { $0.text.hasPrefix("WRITE 0000fe03") }.count == admitted.count)
            await recorder.stop()
        }
    }

    /// The bridge on MQTT 3.1.1: retained state, telemetry, a command answered on `…/reply` (3.1.1 has no
    /// response topic), and a subscriber on 3.1.1 as well.
    @Test func theBridgeWorksOnMQTT311() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            var configuration = try MQTTConfiguration(url: world.broker.url)
            configuration.protocolVersion = .v311
            let recorder = try await TopicRecorder(configuration: configuration)
            let daemon = try await world.startBridge(extraArguments: ["--mqtt-version", "3.1.1"])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/heading")
            try recorder.publish("belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"v311"}"#)
            let reply = try await recorder.waitFor("belt/\(id)/reply")
            #expect(reply.payloadString == #"{"command":"mode","ok":true,"transaction":"v311"}"#)
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "app" }
            let snapshot = try await TopicRecorder(configuration: configuration)
            let retained = try await snapshot.retainedAtSubscription()
            await snapshot.stop()
            #expect(retained["belt/\(id)/mode"] == "app" && retained["gatt2mqtt/test/status"] == "online", "\(retained)")
            #expect(daemon.outputText.contains("protocol: 3.1.1"))
            await recorder.stop()
        }
    }

    /// `--base-topic`: every topic of the bridge, commands included, lives under the prefix, so a second
    /// fleet on the broker is left alone; Home Assistant's ids carry the prefix too.
    @Test func aBaseTopicPrefixesEveryTopic() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge(extraArguments: ["--base-topic", "site-a/floor1"])
            try await recorder.waitFor("site-a/floor1/belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("site-a/floor1/gatt2mqtt/test/status") { $0.payloadString == "online" }
            try recorder.publish("belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"other-fleet"}"#)
            try recorder.publish("site-a/floor1/belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"ours"}"#)
            let reply = try await recorder.waitFor("site-a/floor1/belt/\(id)/reply")
            #expect(reply.payloadString == #"{"command":"mode","ok":true,"transaction":"ours"}"#)
            try await recorder.waitFor("site-a/floor1/belt/\(id)/mode") { $0.payloadString == "app" }
            let config = try await recorder.waitFor("homeassistant/sensor/site-a_floor1_belt_\(id)/heading/config")
            #expect(config.payloadString?.contains(#""state_topic":"site-a/floor1/belt/\#(id)/heading""#) == true)
            let outside = recorder.messages.filter { message in
                !message.topic.hasPrefix("site-a/floor1/") && !message.topic.hasPrefix("homeassistant/") && message.topic != "belt/\(id)/cmd/mode"
            }
            #expect(outside.isEmpty, "published outside the base topic: \(outside.map(\.topic))")
            #expect(recorder.messages(on: "belt/\(id)/reply").isEmpty, "the other fleet's command was not ours to answer")
            await recorder.stop()
        }
    }

    /// `--allow`: only the listed device connects by itself; the other is seen, listed idle, never connected.
    @Test func onlyAnAllowedDeviceConnectsByItself() async throws {
        try await TestWorld.with(peripheralAdapters: 2) { world in
            let allowed = try await world.startSimulator(["belt"], adapter: "hci1")
            let other = try await world.startSimulator(["belt"], adapter: "hci2")
            let (allowedAddress, allowedID) = (try allowed.simulatedAddress, try allowed.simulatedID)
            let (otherAddress, otherID) = (try other.simulatedAddress, try other.simulatedID)
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge(extraArguments: ["--allow", allowedAddress.lowercased()])
            try await recorder.waitFor("belt/\(allowedID)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("gatt2mqtt/test/devices") { message in
                let text = message.payloadString ?? ""
                return text.contains(otherAddress) && text.contains(#""state":"connected""#)
            }
            let devices = try #require(recorder.messages(on: "gatt2mqtt/test/devices").last?.payloadString)
            #expect(devices.contains(#""address":"\#(otherAddress)","family":"belt","id":"\#(otherID)","name":"naviGuertel-SIM","paired":false,"state":"idle""#), "\(devices)")
            #expect(recorder.messages(on: "belt/\(otherID)/connection").isEmpty)
            #expect(!other.lines.contains { $0.text.hasPrefix("WRITE") })
            await recorder.stop()
        }
    }
}
