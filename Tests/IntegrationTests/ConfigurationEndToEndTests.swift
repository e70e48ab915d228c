import Foundation
import Testing
import TestSupport

/// The daemon from a configuration file: an alias becomes the device's `<id>`, and a bad file stops it
/// at startup with the key's name.
@Suite(.serialized)
struct ConfigurationEndToEndTests {
    @Test func anAliasReplacesTheAddressInTopics() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let ready = try #require(belt.lines.first { $0.text.hasPrefix("READY ") }?.text)
            let address = String(ready.split(separator: " ")[2])
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("g2m-\(UUID().uuidString.prefix(8)).yaml").path
            try "devices:\n  aliases:\n    \"\(address)\": hall-belt\n".write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge(extraArguments: ["--config", file])
            try await recorder.waitFor("belt/hall-belt/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/hall-belt/heading")
            try recorder.publish("belt/hall-belt/cmd/mode", "app")
            #expect(try await recorder.waitFor("belt/hall-belt/reply").payloadString == #"{"command":"mode","ok":true}"#)
            try await recorder.waitFor("gatt2mqtt/test/devices") { $0.payloadString?.contains(#""id":"hall-belt""#) == true }
            await recorder.stop()
        }
    }

    @Test func aBadFileIsAStartupErrorNamingTheKey() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("g2m-\(UUID().uuidString.prefix(8)).yaml").path
        try "a5:\n  squeeze_newtons: 3\n  release_newtons: 5\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try ManagedProcess.launch(ProjectPaths.binary("gatt2mqtt"), arguments: ["--config", file], name: "gatt2mqtt")
        #expect(try await daemon.waitForExit() == .exited(78))
        #expect(daemon.outputText.contains(
            "gatt2mqtt: configuration error: a5.squeeze_newtons: must be a number greater than a5.release_newtons (5)"))
    }
}
