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

    /// Per-device options (issue #58, item 2) on the daemon: checked as the file is, kept, and taken at once by the
    /// connected belt: its streams off (no `heading` while two health reports go by, `heading` again once they are
    /// on), its Home Assistant name and a hidden entity in its device config, the settings in `info`.
    @Test func perDeviceOptionsReachAConnectedBeltAtOnce() async throws {
        try await TestWorld.withConnectedBelt(
            simulator: ["--orientation-period-ms", "100"],
            bridgeArguments: ["--requests-privileged", "true", "--health-seconds", "1"]
        ) { _, connected in
            let (recorder, id) = (connected.recorder, connected.id)
            let address = try connected.belt.simulatedAddress
            try await recorder.waitFor("belt/\(id)/heading")

            let refused = recorder.mark
            try recorder.publish(
                "gatt2mqtt/test/request/options", #"{"options":{"devices":{"streaming":{"\#(address)":"no"}}}}"#)
            let refusal = try await recorder.waitFor("gatt2mqtt/test/response/options", after: refused)
            #expect(
                refusal.payloadString?.contains(
                    #""message":"devices.streaming.\#(address): must be on or off, not 'no'""#)
                    == true, "\(refusal.payloadString ?? "")")

            let off = recorder.mark
            try recorder.publish(
                "gatt2mqtt/test/request/options",
                #"{"options":{"devices":{"streaming":{"\#(address)":"off"},"names":{"\#(address)":"Front belt"},"entities":{"\#(address)/battery":"hidden"}}}}"#
            )
            try await recorder.waitFor("gatt2mqtt/test/response/options", after: off)
            // Where the answer is among the messages: what comes after it, the options made.
            let answered = try #require(
                recorder.messages.indices.last { recorder.messages[$0].topic == "gatt2mqtt/test/response/options" })
            let answer = recorder.messages[answered].payloadString ?? ""
            for key in ["devices.entities", "devices.names", "devices.streaming"] {
                #expect(answer.contains(#""\#(key)""#), "\(answer)")
            }
            #expect(answer.contains(#""restart_required":[]"#), "\(answer)")
            // Sent again with the hidden entities' platforms alone (Home Assistant removes them so), then without them.
            let configTopic = "homeassistant/device/fleet_belt_\(id)/config"
            let config = try #require(
                try await recorder.waitFor(configTopic, after: off) {
                    $0.payloadString?.contains(#""name":"Front belt""#) == true
                        && $0.payloadString?.contains(#""battery":{"#) == false
                }.payloadString)
            #expect(!config.contains(#""heading":{"#), "reads a stream that is off")
            #expect(
                recorder.messages(on: configTopic, after: off).contains {
                    $0.payloadString?.contains(#""battery":{"platform":"sensor"}"#) == true
                        && $0.payloadString?.contains(#""heading":{"platform":"sensor"}"#) == true
                },
                "the removal before: \(recorder.messages(on: configTopic, after: off).map { $0.payloadString ?? "" })")
            try await recorder.waitFor("gatt2mqtt/test/info", after: off) {
                $0.payloadString?.contains(#""streaming":{"\#(address)":"off"}"#) == true
            }
            // Ten orientations a second from the belt, none published while two health reports go by.
            let first = recorder.mark
            try await recorder.waitFor("gatt2mqtt/test/health", after: first)
            try await recorder.waitFor("gatt2mqtt/test/health", after: recorder.mark)
            let quiet = recorder.messages.dropFirst(answered + 1)
            #expect(!quiet.contains { $0.topic == "belt/\(id)/heading" || $0.topic == "belt/\(id)/orientation" })

            let on = recorder.mark
            try recorder.publish(
                "gatt2mqtt/test/request/options", #"{"options":{"devices":{"streaming":null}}}"#)
            try await recorder.waitFor("belt/\(id)/heading", after: on)
            #expect(recorder.messages(on: "belt/\(id)/connection", after: off).isEmpty, "the same session")
        }
    }

    /// `devices.intervals` through `request/options`: a connected Activ5 whose battery is read every minute (the
    /// family's interval) reads it every second from the change on, in the same session.
    @Test func aDevicesOwnIntervalPacesItsReadsAtOnce() async throws {
        try await TestWorld.with { world in
            let device = try await world.startSimulator(["a5"])
            let (id, address) = (try device.simulatedID, try device.simulatedAddress)
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge(extraArguments: ["--requests-privileged", "true"])
            try await recorder.waitFor("a5/\(id)/connection") { $0.payloadString == "connected" }
            let first = try await recorder.waitFor("a5/\(id)/battery")

            let changed = recorder.mark
            try recorder.publish(
                "gatt2mqtt/test/request/options",
                #"{"options":{"devices":{"intervals":{"\#(address)/battery_s":1}}}}"#)
            let answer = try await recorder.waitFor("gatt2mqtt/test/response/options", after: changed)
            #expect(
                answer.payloadString?.contains(#""applied":["devices.intervals"],"restart_required":[]"#) == true,
                "\(answer.payloadString ?? "")")
            try device.send(line: "battery 42")
            try await recorder.waitFor("a5/\(id)/battery", after: changed) { $0.payloadString != first.payloadString }
            #expect(recorder.messages(on: "a5/\(id)/connection", after: changed).isEmpty, "the same session")
            try await recorder.waitFor("gatt2mqtt/test/info", after: changed) {
                $0.payloadString?.contains(#""intervals":{"\#(address)/battery_s":"1"}"#) == true
            }
            await recorder.stop()
        }
    }
}
