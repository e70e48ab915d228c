import Foundation
import MQTT
import TestSupport
import Testing

/// Safe when the broker is open (issue #56, item 4), over a real mosquitto: on a broker that lets anyone in, anyone
/// could send `request/options` with `auto_connect: all` (kept across restarts) or `request/restart`. A gateway that
/// reaches a broker without credentials takes no privileged request unless told to, and then warns.
@Suite(.serialized)
struct OpenBrokerTests {
    /// On a broker that lets anyone in, a gateway without credentials refuses `options` (`not_permitted`) and keeps
    /// its settings; told to take them (`--requests-privileged true`), it does, and warns at start and in `info`.
    @Test func anOpenBrokersClientsCannotChangeTheGatewayUnlessItIsToldSo() async throws {
        try await TestWorld.with { world in
            let recorder = try await TopicRecorder(world: world)
            // What the gateway may keep from options; `auto_connect` here is the flag's, which options never override.
            let change = #"{"options":{"health_s":30}}"#
            let first = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            var mark = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/options", change)
            let refused = try await recorder.waitFor("gatt2mqtt/test/response/options", after: mark)
            print("FIGURE open broker, request/options: \(refused.payloadString ?? "")")
            #expect(
                refused.payloadString?.contains(#""code":"not_permitted""#) == true, "\(refused.payloadString ?? "")")
            let info = try await recorder.waitFor("gatt2mqtt/test/info")
            #expect(info.payloadString?.contains(#""privileged_requests":false"#) == true)
            #expect(info.payloadString?.contains(#""health_s":60"#) == true, "unchanged")
            #expect(!first.outputText.contains("privileged requests (options, restart) are taken"))
            await first.terminate()

            mark = recorder.mark
            let second = try await world.startBridge(
                extraArguments: ["--auto-connect", "adopted", "--requests-privileged", "true"])
            try await second.waitForLine(containing: "privileged requests (options, restart) are taken")
            let warned = try await recorder.waitFor("gatt2mqtt/test/info", after: mark) {
                $0.payloadString?.contains(#""warnings":["privileged requests"#) == true
            }
            #expect(warned.payloadString?.contains(#""privileged_requests":true"#) == true)
            mark = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/options", change)
            let taken = try await recorder.waitFor("gatt2mqtt/test/response/options", after: mark)
            #expect(taken.payloadString?.contains(#""ok":true"#) == true, "\(taken.payloadString ?? "")")
        }
    }
}
