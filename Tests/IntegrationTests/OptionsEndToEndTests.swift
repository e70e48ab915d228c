import Foundation
import TestSupport
import Testing

/// `request/options` on the daemon (issue #46, item 2), over a real broker: a change checked as the file is, applied
/// at once where it can be (the allow list), the rest said to need a restart, refused where a flag decides, and kept
/// in the state directory across `request/restart`.
@Suite(.serialized)
struct OptionsEndToEndTests {
    @Test func optionsApplyRefuseAndOutliveARestart() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let address = String(
                try #require(belt.lines.first { $0.text.hasPrefix("READY ") }?.text).split(separator: " ")[2])
            let id = address.lowercased().replacingOccurrences(of: ":", with: "")
            let recorder = try await TopicRecorder(world: world)
            try await withCleanUp({ await recorder.stop() }) {
                // No device is allowed yet: the belt stays a stranger.
                // Restarted below, moments after its start: no hold-off. The test's broker takes anyone, so the
                // privileged requests are switched on (by default they are taken only from a broker logged in to).
                let first = try await world.startBridge(
                    extraArguments: [
                        "--auto-connect", "allowed", "--limits-restart-holdoff-seconds", "0", "--requests-privileged",
                        "true",
                    ])
                let change = recorder.mark
                try recorder.publish(
                    "gatt2mqtt/test/request/options",
                    #"{"options":{"devices":{"allow":["\#(address)"]},"health_s":2},"transaction":1}"#)
                let answer = try await recorder.waitFor("gatt2mqtt/test/response/options", after: change)
                #expect(
                    answer.payloadString
                        == #"{"data":{"applied":["devices.allow"],"restart_required":["health_s"]},"ok":true,"request":"options","transaction":1}"#
                )
                try await recorder.waitFor("belt/\(id)/connection", after: change) { $0.payloadString == "connected" }
                try await recorder.waitFor("gatt2mqtt/test/info", after: change) {
                    $0.payloadString?.contains(#""allow":["\#(address)"]"#) == true
                }

                // A flag decides the log level: options cannot change it, and say why, by the flag's name.
                let refused = recorder.mark
                try recorder.publish("gatt2mqtt/test/request/options", #"{"options":{"log_level":"trace"}}"#)
                let refusal = try await recorder.waitFor("gatt2mqtt/test/response/options", after: refused)
                #expect(
                    refusal.payloadString?.contains(
                        #""code":"invalid_value","message":"log_level: is set by --log-level, which overrides options"#)
                        == true, "\(refusal.payloadString ?? "")")

                // Restarted, the gateway starts with what the options said: the belt allowed, health every 2 s.
                try recorder.publish("gatt2mqtt/test/request/restart", "{}")
                #expect(try await first.waitForExit(timeout: .seconds(20)) == .exited(75))
                let restart = recorder.mark
                _ = try await world.startBridge(extraArguments: ["--auto-connect", "allowed"])
                try await recorder.waitFor("belt/\(id)/connection", after: restart) { $0.payloadString == "connected" }
                try await recorder.waitFor("gatt2mqtt/test/info", after: restart) {
                    $0.payloadString?.contains(#""health_s":2"#) == true
                }
            }
        }
    }
}
