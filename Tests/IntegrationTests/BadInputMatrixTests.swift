import Foundation
import MQTT
import Testing
import TestSupport

/// Every command topic of every family × malformed payloads: an error reply with a stable code, a log
/// line, no GATT write, and the bridge keeps serving.
@Suite(.serialized)
struct BadInputMatrixTests {
    /// Commands that take arguments (a bare `{}` is a valid `start`, so argument-less commands are tried
    /// only with payloads that are malformed as such).
    static let commands: [(family: String, names: [String])] = [
        ("belt", ["mode", "vibrate", "channel", "pulse", "signal", "intensity", "compass_accuracy_signal", "heading_offset",
                  "orientation", "navigation", "notify", "stop"]),
        ("a5", ["imu", "sample_period", "evergreen", "start"]),
        ("cpr", ["range", "name", "practice"]),
    ]

    static let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)

    /// Payload, and the codes it may earn: structure problems are `invalid_payload`, content problems `invalid_value`.
    static let payloads: [(name: String, bytes: [UInt8], codes: Set<String>)] = [
        ("not JSON", Array("{\"value\":".utf8), ["invalid_payload"]),
        ("array", Array("[1,2]".utf8), ["invalid_payload"]),
        ("deep nesting", Array("{\"value\":\(deep)}".utf8), ["invalid_payload"]),
        // Above payload_size_limit (16 KiB), below the Maximum Packet Size the gateway asks for: answered.
        ("20 KiB", [UInt8](repeating: 0x61, count: 20 * 1024), ["invalid_payload"]),
        ("invalid UTF-8", [0x7B, 0xC3, 0x28, 0x7D], ["invalid_payload"]),
        ("NaN", Array("{\"value\":NaN}".utf8), ["invalid_payload"]),
        ("wrong type", Array("{\"value\":[1]}".utf8), ["invalid_value"]),
        ("unknown field", Array("{\"speed\":3}".utf8), ["invalid_value"]),
    ]

    @Test func malformedCommandsAreRefusedWithoutAnyWrite() async throws {
        try await TestWorld.with(peripheralAdapters: 3) { world in
            var devices: [String: (process: ManagedProcess, id: String)] = [:]
            for (index, family) in ["belt", "a5", "cpr"].enumerated() {
                let process = try await world.startSimulator([family], adapter: "hci\(index + 1)")
                let ready = try #require(process.lines.first { $0.text.hasPrefix("READY ") }?.text)
                devices[family] = (process, String(ready.split(separator: " ")[2]).lowercased().replacingOccurrences(of: ":", with: ""))
            }
            let recorder = try await TopicRecorder(url: world.broker.url)
            let bridge = try await world.startBridge()
            for (family, device) in devices {
                try await recorder.waitFor("\(family)/\(device.id)/connection") { $0.payloadString == "connected" }
            }
            let before = devices.mapValues { $0.process.lineCount }
            let (logged, started) = (bridge.lineCount, ContinuousClock.now)

            var cases = 0
            for (family, names) in Self.commands {
                let id = try #require(devices[family]?.id)
                for name in names + ["fly"] {
                    for payload in Self.payloads {
                        let topic = "matrix/\(family)/\(name)/\(cases)"
                        try recorder.client.publish(MQTTMessage(
                            topic: "\(family)/\(id)/cmd/\(name)", payload: payload.bytes, qos: .atLeastOnce, responseTopic: topic))
                        let reply = try #require(try await recorder.waitFor(topic).payloadString)
                        let expected = name == "fly" && payload.codes.contains("invalid_value") ? ["unknown_command"] : payload.codes
                        #expect(reply.contains(#""ok":false"#), "\(family)/\(name) × \(payload.name): \(reply)")
                        #expect(expected.contains { reply.contains(#""code":"\#($0)""#) }, "\(family)/\(name) × \(payload.name): \(reply)")
                        cases += 1
                    }
                }
            }
            #expect(cases == Self.commands.map { $0.names.count + 1 }.reduce(0, +) * Self.payloads.count)

            // No GATT write reached any device (belt keep-alive acknowledgements on FE02 aside).
            for (family, device) in devices {
                let writes = device.process.lines.dropFirst(before[family] ?? 0).filter { $0.text.hasPrefix("WRITE ") && !$0.text.contains("0000fe02-") }
                #expect(writes.isEmpty, "\(family) received \(writes.map(\.text))")
            }
            // Refusals are logged a few times a minute per error code: anyone on the broker can send them. The log
            // reaches the test through a pipe, the replies through the broker: a refused request, logged after every
            // refused command, is waited for before counting.
            try recorder.publish("gatt2mqtt/test/request/devices", #"{"value":"#)
            try await bridge.waitForLine(containing: "request refused", after: logged)
            let minutes = Int((ContinuousClock.now - started) / .seconds(60)) + 1
            let refusals = bridge.lines.dropFirst(logged).filter { $0.text.contains("command refused") }
            for code in ["invalid_payload", "invalid_value", "unknown_command"] {
                let lines = refusals.filter { $0.text.contains(code) }.count
                #expect((1...5 * minutes).contains(lines), "\(code): \(lines) lines in \(minutes) minute(s) for \(cases) refusals")
            }
            // And the bridge still serves: the belt's heading keeps coming.
            let mark = recorder.mark
            try await recorder.waitFor("belt/\(devices["belt"]!.id)/heading", after: mark)
            await recorder.stop()
        }
    }

    /// Beyond twice payload_size_limit a message never reaches the gateway (MQTT 5 Maximum Packet Size: the broker
    /// keeps it back); a non-command above payload_size_limit is dropped unparsed, counted in the health report
    /// (`oversized_messages`), and warned about at most five times a minute.
    @Test func oversizedMessagesAreNeverParsedAndTheirWarningsAreRateLimited() async throws {
        try await TestWorld.withConnectedBelt(bridgeArguments: ["--health-seconds", "1"]) { _, connected in
            let (belt, id, recorder, bridge) = (connected.belt, connected.id, connected.recorder, connected.bridge)
            let (before, logged) = (belt.lineCount, bridge.lineCount)
            try recorder.client.publish(MQTTMessage(
                topic: "belt/\(id)/cmd/vibrate", payload: [UInt8](repeating: 0x61, count: 1_048_576), qos: .atLeastOnce,
                responseTopic: "test/huge"))
            for _ in 0..<10 {
                try recorder.client.publish(MQTTMessage(topic: "belt/\(id)/navigation_signal", payload: [UInt8](repeating: 0x7B, count: 20 * 1024), qos: .atLeastOnce))
            }
            // A barrier: the receive path handles messages in order, and this one is answered and logged (the log comes
            // through a pipe, the answer through the broker: both are waited for).
            try recorder.publish("belt/\(id)/cmd/vibrate", "not json", responseTopic: "test/barrier")
            try await recorder.waitFor("test/barrier")
            try await bridge.waitForLine(containing: "command refused", after: logged)
            #expect(recorder.messages(on: "test/huge").isEmpty, "the broker kept the 1 MB command back")
            let health = try await recorder.waitFor("gatt2mqtt/test/health") { $0.payloadString?.contains(#""oversized_messages":10"#) == true }
            #expect(health.payloadString?.contains(#""dropped_messages":0"#) == true)
            let warnings = bridge.lines.filter { $0.text.contains("message ignored: larger than payload_size_limit") }
            #expect(warnings.count == 5, "\(warnings.map(\.text))")
            #expect(!belt.lines.dropFirst(before).contains { $0.text.hasPrefix("WRITE ") && !$0.text.contains("0000fe02-") })
        }
    }

    /// A command's response topic that names a state topic (here the gateway's own status) is not written to: the
    /// answer goes to the device's `reply` topic instead, and the status stays `online`. A command topic whose id no
    /// device may have is ignored with a warning.
    @Test func answersNeverOverwriteStateAndMalformedCommandTopicsAreIgnored() async throws {
        try await TestWorld.withConnectedBelt { _, connected in
            let (id, recorder, bridge) = (connected.id, connected.recorder, connected.bridge)
            let mark = recorder.mark
            try recorder.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "gatt2mqtt/test/status")
            #expect(try await recorder.waitFor("belt/\(id)/reply", after: mark).payloadString == #"{"command":"mode","ok":true}"#)
            #expect(!recorder.messages.dropFirst(mark).contains { $0.topic == "gatt2mqtt/test/status" }, "the status was never overwritten")
            try recorder.publish("belt/\(String(repeating: "é", count: 40))/cmd/mode", #"{"mode":"app"}"#, responseTopic: "test/bad-id")
            try await bridge.waitForLine(containing: "command ignored: its topic names no valid device id or command")
        }
    }
}
