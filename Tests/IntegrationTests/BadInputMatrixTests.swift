import Foundation
import MQTT
import TestSupport
import Testing

/// What a broker-borne flood of oversized messages does to the gateway, over a real broker: beyond 1 MiB (and room
/// for topic and properties) the broker keeps a message back (MQTT 5 Maximum Packet Size). The rest of the bad-input
/// matrix (every command × malformed payloads, answers kept off state topics) checks the gateway's own logic
/// and runs in memory: `GatewayCommandRoutingTests`.
@Suite(.serialized)
struct BadInputMatrixTests {
    /// Beyond 1 MiB a message never reaches the gateway (MQTT 5 Maximum Packet Size: the broker keeps it back); a
    /// command of 1 MiB is answered that it is too large and counted (issue #56: one of 40 KiB was kept back, with no
    /// answer and no count); a non-command above payload_size_limit is dropped unparsed, counted in the health report
    /// (`oversized_messages`), and warned about at most five times a minute.
    @Test func oversizedMessagesAreNeverParsedAndTheirWarningsAreRateLimited() async throws {
        try await TestWorld.withConnectedBelt(bridgeArguments: ["--health-seconds", "1"]) { _, connected in
            let (belt, id, recorder, bridge) = (connected.belt, connected.id, connected.recorder, connected.bridge)
            let (before, logged) = (belt.lineCount, bridge.lineCount)
            for (bytes, reply) in [(1_048_576, "reply/test/large"), (2_097_152, "reply/test/huge")] {
                try recorder.client.publish(
                    MQTTMessage(
                        topic: "belt/\(id)/cmd/vibrate", payload: [UInt8](repeating: 0x61, count: bytes),
                        qos: .atLeastOnce, responseTopic: reply))
            }
            for _ in 0..<10 {
                try recorder.client.publish(
                    MQTTMessage(
                        topic: "belt/\(id)/navigation_signal", payload: [UInt8](repeating: 0x7B, count: 20 * 1024),
                        qos: .atLeastOnce))
            }
            // A barrier: the receive path handles messages in order, and this one is answered and logged (the log comes
            // through a pipe, the answer through the broker: both are waited for).
            try recorder.publish("belt/\(id)/cmd/vibrate", "not json", responseTopic: "reply/test/barrier")
            try await recorder.waitFor("reply/test/barrier")
            try await bridge.waitForLine(containing: "command refused", after: logged)
            #expect(recorder.messages(on: "reply/test/huge").isEmpty, "the broker kept the 2 MiB command back")
            let large = recorder.messages(on: "reply/test/large").map { $0.payloadString ?? "" }
            #expect(
                large.count == 1 && large[0].contains(#""code":"invalid_payload""#)
                    && large[0].contains("payload is 1048576 bytes"), "\(large)")
            let health = try await recorder.waitFor("gatt2mqtt/test/health") {
                $0.payloadString?.contains(#""oversized_messages":11"#) == true
            }
            #expect(health.payloadString?.contains(#""dropped_messages":0"#) == true)
            let warnings = bridge.lines.filter { $0.text.contains("message ignored: larger than payload_size_limit") }
            #expect(warnings.count == 5, "\(warnings.map(\.text))")
            try await belt.caughtUp()
            #expect(
                !belt.lines.dropFirst(before).contains { $0.text.hasPrefix("WRITE ") && !$0.text.contains("0000fe02-") }
            )
        }
    }
}
