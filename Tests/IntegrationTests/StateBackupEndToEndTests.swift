import Foundation
import MQTT
import TestSupport
import Testing

/// Backup and restore of a gateway's state directory (issue #58, item 3), on the daemon over a real broker: a gateway
/// replaced (a fresh state directory) on a broker that lost what it kept serves the same devices under the identities
/// Home Assistant knows them by, once the backup is restored, over MQTT or offline.
@Suite(.serialized)
struct StateBackupEndToEndTests {
    @Test func aGatewayRestoredOnAFreshStateDirectoryServesTheSameDevicesUnderTheSameIdentities() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let address = String(
                try #require(belt.lines.first { $0.text.hasPrefix("READY ") }?.text).split(separator: " ")[2])
            let id = address.lowercased().replacingOccurrences(of: ":", with: "")
            // The first gateway was upgraded from 0.9.0: Home Assistant knows the belt as `front-belt`, which only its
            // state directory remembers once the broker's retained configs are gone (`IdentityLedger`).
            let first = world.stateFolder + "/first"
            try FileManager.default.createDirectory(atPath: first, withIntermediateDirectories: true)
            try #"{"belt/\#(address)":"front-belt"}"#.write(
                toFile: first + "/identities.json", atomically: true, encoding: .utf8)
            let config = "homeassistant/device/fleet_belt_front-belt/config"
            // The test's broker takes anyone: the privileged requests (restore) are switched on.
            let arguments = ["--auto-connect", "adopted", "--requests-privileged", "true"]
            let recorder = try await TopicRecorder(world: world)
            try await withCleanUp({ await recorder.stop() }) {
                let original = try await world.startBridge(
                    extraArguments: arguments, extraEnvironment: ["GATT2MQTT_STATE_DIRECTORY": first])
                try await recorder.waitUntilSeen(address)
                try recorder.publish("gatt2mqtt/test/request/connect", #"{"address":"\#(address)"}"#)
                try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
                let uniqueID = try Self.uniqueID(try await recorder.waitFor(config))
                #expect(uniqueID.contains("front-belt"), "\(uniqueID)")

                // request/backup answers with the document: the adopted belt and the kept identity, no secret.
                let asked = recorder.mark
                try recorder.publish("gatt2mqtt/test/request/backup", #"{"transaction":7}"#)
                let answer = try Self.object(try await recorder.waitFor("gatt2mqtt/test/response/backup", after: asked))
                #expect(answer["ok"] as? Bool == true && answer["transaction"] as? Int == 7, "\(answer)")
                let document = try #require(answer["data"] as? [String: Any])
                #expect(document["format"] as? String == "gatt2mqtt-backup")
                let adopted = try #require(document["adopted"] as? [[String: Any]])
                #expect(adopted.map { $0["address"] as? String } == [address])
                #expect((document["identities"] as? [String: String]) == ["belt/\(address)": "front-belt"])
                #expect((document["fleet_incarnation"] as? Int ?? 0) > 0, "\(document)")
                original.send(SIGTERM)
                _ = try await original.waitForExit()

                // The broker forgets everything it kept (a new one, or one that lost its store), so that nothing but
                // the backup knows the belt: a first start otherwise adopts what the gateway's retained info names.
                try await Self.clearRetained(world)

                // The replacement: a fresh state directory; the backup restored over MQTT, then the restart applies it.
                let second = world.stateFolder + "/second"
                let replacement = try await world.startBridge(
                    extraArguments: arguments, extraEnvironment: ["GATT2MQTT_STATE_DIRECTORY": second])
                let restoring = recorder.mark
                let payload = try JSONSerialization.data(withJSONObject: ["backup": document])
                try recorder.publish("gatt2mqtt/test/request/restore", String(decoding: payload, as: UTF8.self))
                let restored = try Self.object(
                    try await recorder.waitFor("gatt2mqtt/test/response/restore", after: restoring))
                #expect(restored["ok"] as? Bool == true, "\(restored)")
                #expect(try await replacement.waitForExit(timeout: .seconds(20)) == .exited(75))
                let restarted = recorder.mark
                let again = try await world.startBridge(
                    extraArguments: arguments, extraEnvironment: ["GATT2MQTT_STATE_DIRECTORY": second])
                #expect(again.outputText.contains("state restored from a backup"))
                #expect(!FileManager.default.fileExists(atPath: second + "/restore.json"), "applied, then removed")
                try await recorder.waitFor("belt/\(id)/connection", after: restarted) {
                    $0.payloadString == "connected"
                }
                #expect(try Self.uniqueID(try await recorder.waitFor(config, after: restarted)) == uniqueID)

                // Offline: the restored directory backs up to the same state; --restore stages a backup for the next
                // start, and refuses one whose options would move the gateway to another broker.
                let file = world.stateFolder + "/backup.json"
                #expect(try await Self.offline(world, ["--backup", file], stateDirectory: second).exit == .exited(0))
                let offline = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
                        as? [String: Any])
                #expect((offline["identities"] as? [String: String]) == ["belt/\(address)": "front-belt"])
                #expect((offline["adopted"] as? [[String: Any]])?.map { $0["address"] as? String } == [address])
                let third = world.stateFolder + "/third"
                var tampered = offline
                tampered["options"] = ["broker": ["url": "mqtt://elsewhere.example:1883"]]
                let tamperedFile = world.stateFolder + "/tampered.json"
                try JSONSerialization.data(withJSONObject: tampered).write(to: URL(fileURLWithPath: tamperedFile))
                let refused = try await Self.offline(world, ["--restore", tamperedFile], stateDirectory: third)
                #expect(refused.exit == .exited(1))
                #expect(refused.output.contains("broker.url: cannot be changed over MQTT"), "\(refused.output)")
                #expect(!FileManager.default.fileExists(atPath: third + "/restore.json"))
                let staged = try await Self.offline(world, ["--restore", file], stateDirectory: third)
                #expect(staged.exit == .exited(0), "\(staged.output)")
                #expect(FileManager.default.fileExists(atPath: third + "/restore.json"))
            }
        }
    }

    /// `gatt2mqtt ARGUMENTS` with `stateDirectory`, to its end.
    private static func offline(_ world: TestWorld, _ arguments: [String], stateDirectory: String) async throws -> (
        exit: ProcessExit, output: String
    ) {
        let process = try world.launch(
            ProjectPaths.binary("gatt2mqtt"), ["--broker", world.broker.url, "--gateway", "test"] + arguments,
            name: "gatt2mqtt-offline", extraEnvironment: ["GATT2MQTT_STATE_DIRECTORY": stateDirectory])
        let exit = try await process.waitForExit(timeout: .seconds(20))
        return (exit, process.outputText)
    }

    /// Empties every retained topic on the world's broker.
    private static func clearRetained(_ world: TestWorld) async throws {
        let cleaner = try await TopicRecorder(world: world)
        for topic in try await cleaner.retainedAtSubscription().keys { try cleaner.publish(topic, "", retain: true) }
        // Published in order on one session: once this comes back, every clearing before it has been taken.
        let marker = "test/cleared/\(UInt64.random(in: 0...UInt64.max))"
        try cleaner.publish(marker, "")
        try await cleaner.waitFor(marker)
        await cleaner.stop()
    }

    private static func object(_ message: MQTTMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
    }

    /// The battery's unique id, from the belt's device config.
    private static func uniqueID(_ message: MQTTMessage) throws -> String {
        let components = try #require(try object(message)["components"] as? [String: Any])
        return try #require((components["battery"] as? [String: Any])?["unique_id"] as? String)
    }
}
