import Foundation
import TestSupport
import Testing

/// Adoption across an upgrade, with the daemon as a process: a gateway that connected every device of a known family
/// (0.9.0's default, `auto_connect: all`) leaves its retained `info` and its fleet incarnation file behind; the next
/// version, started with its defaults and no adoptions file yet, adopts and serves the same belt without anyone
/// asking, and keeps it. (Without the incarnation file, a fresh install, it would not: `RogueAdoptionTests`.)
@Suite(.serialized)
struct AdoptionEndToEndTests {
    @Test(arguments: BlueZWorld.enabled)
    func anUpgradeFromAGatewayThatConnectedEverythingKeepsItsDevices(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let belt = try await world.startSimulator(["belt"])
            let (address, id) = (try belt.simulatedAddress, try belt.simulatedID)
            let recorder = try await TopicRecorder(world: world)
            let before = try await world.startBridge(extraArguments: ["--auto-connect", "all"])
            try await recorder.waitFor("belt/\(id)/info") { $0.payloadString?.contains(#""gateway":"test""#) == true }
            _ = await before.terminate(grace: .seconds(10))
            // What 0.9.0 leaves: its info and its fleet incarnation file, no adoptions list and no adoptions file.
            try recorder.publish("gatt2mqtt/test/adopted", "", retain: true)
            let state = world.stateFolder + "/gatt2mqtt"
            #expect(FileManager.default.fileExists(atPath: state + "/fleet-incarnation"))
            try FileManager.default.removeItem(atPath: state + "/adopted.json")

            let upgrade = recorder.mark
            let after = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            try await recorder.waitFor("belt/\(id)/connection", after: upgrade) { $0.payloadString == "connected" }
            try await recorder.waitFor("gatt2mqtt/test/adopted", after: upgrade) {
                $0.payloadString?.contains(address) == true
            }
            #expect(after.lines.contains { $0.text.contains("device adopted") && $0.text.contains("by=served before") })
            let kept = try String(contentsOfFile: world.stateFolder + "/gatt2mqtt/adopted.json", encoding: .utf8)
            #expect(kept == #"[{"address":"\#(address)","family":"belt"}]"#)
            await recorder.stop()
        }
    }
}
