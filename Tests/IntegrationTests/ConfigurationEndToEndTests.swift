import Foundation
import TestSupport
import Testing

/// The daemon from a configuration file: an alias becomes the device's `<id>`, and a bad file stops it
/// at startup with the key's name.
@Suite(.serialized)
struct ConfigurationEndToEndTests {
    @Test func anAliasReplacesTheAddressInTopics() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let ready = try #require(belt.lines.first { $0.text.hasPrefix("READY ") }?.text)
            let address = String(ready.split(separator: " ")[2])
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "g2m-\(UUID().uuidString.prefix(8)).yaml"
            ).path
            try "devices:\n  aliases:\n    \"\(address)\": hall-belt\n".write(
                toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge(extraArguments: ["--config", file])
            try await recorder.waitFor("belt/hall-belt/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/hall-belt/heading")
            try recorder.publish("belt/hall-belt/cmd/mode", "app")
            #expect(
                try await recorder.waitFor("belt/hall-belt/reply").payloadString == #"{"command":"mode","ok":true}"#)
            try await recorder.waitFor("gatt2mqtt/test/devices") {
                $0.payloadString?.contains(#""id":"hall-belt""#) == true
            }
            await recorder.stop()
        }
    }

    @Test func aBadFileIsAStartupErrorNamingTheKey() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-\(UUID().uuidString.prefix(8)).yaml"
        ).path
        try "a5:\n  squeeze_newtons: 3\n  release_newtons: 5\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let daemon = try ManagedProcess.launch(
            ProjectPaths.binary("gatt2mqtt"), arguments: ["--config", file], name: "gatt2mqtt")
        #expect(try await daemon.waitForExit() == .exited(78))
        #expect(
            daemon.outputText.contains(
                "gatt2mqtt: configuration error: a5.squeeze_newtons: must be a number greater than a5.release_newtons (5)"
            ))
    }

    /// The families' flags reach the daemon through the argument parser untouched (it cannot declare them):
    /// `--help` lists them, they set what they name, and an unknown one is a configuration error.
    @Test func familyFlagsPassThroughTheArgumentParser() async throws {
        let binary = ProjectPaths.binary("gatt2mqtt")
        let printed = try ManagedProcess.launch(
            binary,
            arguments: [
                "--print-config", "--a5-squeeze-newtons", "25", "--gateway", "g", "--cpr-distance-reference-dbm=-61",
            ],
            name: "gatt2mqtt")
        #expect(try await printed.waitForExit() == .exited(0))
        // One line of output each: ManagedProcess marks every line with its stream. Each says which flag gave it.
        #expect(printed.outputText.contains("  squeeze_newtons: 25  # from --a5-squeeze-newtons\n"))
        #expect(printed.outputText.contains("    reference_dbm: -61  # from --cpr-distance-reference-dbm\n"))
        #expect(printed.outputText.contains("  name: \"g\"  # from --gateway\n"))
        let help = try ManagedProcess.launch(binary, arguments: ["--help"], name: "gatt2mqtt")
        #expect(try await help.waitForExit() == .exited(0))
        #expect(help.outputText.contains("--cpr-range-mm <n,n>"))
        let unknown = try ManagedProcess.launch(
            binary, arguments: ["--print-config", "--a5-sqeeze", "25"], name: "gatt2mqtt")
        #expect(try await unknown.waitForExit() == .exited(78))
        #expect(
            unknown.outputText.contains(
                "gatt2mqtt: configuration error: --a5-sqeeze: is not an option of gatt2mqtt (see --help)"))
    }
}
