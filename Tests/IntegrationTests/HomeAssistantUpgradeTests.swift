import Foundation
import MQTT
import TestSupport
import Testing

/// Issue #44, item 1, with a real Home Assistant: it already holds what gatt2mqtt 0.9.0 announced for the demo's
/// four devices, two of them aliased (Tests/Fixtures/homeassistant-0.9.0, captured from 0.9.0 itself and replayed
/// on the broker as 0.9.0 left it), and an automation on the aliased belt's device trigger. Then this release takes
/// over, and later the belt is renamed while it runs (`request/rename`, issue #58). Through both, every entity keeps
/// its unique id, its entity id and its device, nothing is added twice (`_2`), the automation still fires, and the
/// new diagnostics join the same devices.
/// This release makes a config per device: 0.9.0's configs per entity are migrated (`DiscoveryMigration`), which is
/// what keeps the entities. Then the grip is forgotten, and none of its entities is left behind.
@Suite(.serialized)
struct HomeAssistantUpgradeTests {
    private struct Entry: Equatable {
        var entityID: String
        var deviceID: String?
    }

    @Test func anUpgradeFrom090AndARenamedAliasKeepEveryEntity() async throws {
        try await TestWorld.with(peripheralAdapters: 4) { world in
            let belt = try await world.startSimulator(["belt"], adapter: world.peripheralAdapter(1))
            let activ5 = try await world.startSimulator(["a5"], adapter: world.peripheralAdapter(2))
            let band = try await world.startSimulator(["cpr", "--name", "CPR-01"], adapter: world.peripheralAdapter(3))
            let grip = try await world.startSimulator(["grip"], adapter: world.peripheralAdapter(4))
            let recorder = try await TopicRecorder(world: world)
            let gripAddress = try grip.simulatedAddress
            let fixture = try Self.fixture(replacing: [
                "{belt_address_lower}": try belt.simulatedAddress.lowercased(),
                "{a5_address_lower}": try activ5.simulatedAddress.lowercased(),
                "{cpr_address_lower}": try band.simulatedAddress.lowercased(),
                "{grip_address_lower}": try grip.simulatedAddress.lowercased(),
                "{cpr_id}": try band.simulatedID, "{grip_id}": try grip.simulatedID,
            ])
            for (topic, payload) in fixture.sorted(by: { $0.key < $1.key }) {
                try recorder.publish(topic, payload, retain: true)
            }

            let home = try await HomeAssistantInstance.start(brokerPort: world.broker.port)
            do {
                // 0.9.0's entities, unavailable (nothing says the devices are connected).
                _ = try await home.control(
                    [
                        "wait-state", "--entity", "sensor.belt_front_belt_battery", "--state", "unavailable",
                        "--timeout", "60",
                    ], timeout: .seconds(70))
                let before = try await entries(home)
                #expect(before["gatt2mqtt_fleet_belt_front-belt_battery"]?.entityID == "sensor.belt_front_belt_battery")
                #expect(before.count == 46, "0.9.0's 46 entities: \(before.keys.sorted())")
                let automation = try #require(
                    try await home.control([
                        "add-trigger-automation", "--device-identifier", "gatt2mqtt_fleet_belt_front-belt", "--type",
                        "button_short_press", "--subtype", "compass",
                    ]) as? [String: Any])
                let automationID = try #require(automation["automation"] as? String)

                // This release, with 0.9.0's configuration.
                let aliases = try TemporaryConfiguration(
                    "devices:\n  aliases:\n    \"\(try belt.simulatedAddress)\": front-belt\n    \"\(try activ5.simulatedAddress)\": trainer_a5\n"
                )
                // Under the default policy, adoption, so that a forgotten device stays away though it still
                // advertises: the four are adopted through a join window, which is then closed.
                let started = recorder.mark
                // Privileged requests taken (the test broker lets anyone in): the belt is renamed by one below.
                _ = try await world.startBridge(extraArguments: [
                    "--config", aliases.path, "--auto-connect", "adopted", "--requests-privileged", "true",
                ])
                try await recorder.waitFor("gatt2mqtt/test/status", after: started) { $0.payloadString == "online" }
                try recorder.publish("gatt2mqtt/test/request/permit_join", #"{"duration_s":120}"#)
                let ids = [
                    "belt": "front-belt", "a5": "trainer_a5", "cpr": try band.simulatedID, "grip": try grip.simulatedID,
                ]
                for (family, id) in ids {
                    try await recorder.waitFor("\(family)/\(id)/connection", timeout: .seconds(60)) {
                        $0.payloadString == "connected"
                    }
                }
                _ = try await home.control(
                    [
                        "wait-state", "--entity", "binary_sensor.belt_front_belt_connection", "--state", "on",
                        "--timeout", "60",
                    ], timeout: .seconds(70))
                _ = try await home.control(
                    [
                        "wait-state", "--entity", "sensor.belt_front_belt_battery", "--state", "unavailable", "--not",
                        "--timeout", "60",
                    ], timeout: .seconds(70))
                try await expectKept(before, in: home, besides: 4 * 2, belt: try belt.simulatedID)
                let firedAfterUpgrade = try await home.compassPressFires(
                    automationID, belt: belt, recorder: recorder, id: "front-belt")
                #expect(firedAfterUpgrade, "the automation made on 0.9.0's entities fired for belt/front-belt")
                let closing = recorder.mark
                try recorder.publish("gatt2mqtt/test/request/permit_join", #"{"duration_s":0}"#)
                try await recorder.waitFor("gatt2mqtt/test/response/permit_join", after: closing)

                // The belt is renamed while the gateway runs (`request/rename`): its topics move, its Home Assistant
                // entities do not.
                let mark = recorder.mark
                try recorder.publish(
                    "gatt2mqtt/test/request/rename", #"{"address":"\#(try belt.simulatedAddress)","name":"hall-belt"}"#)
                let answer = try await recorder.waitFor("gatt2mqtt/test/response/rename", after: mark)
                #expect(answer.payloadString?.contains(#""to":"hall-belt""#) == true, "\(answer.payloadString ?? "")")
                try await recorder.waitFor("belt/hall-belt/connection", after: mark, timeout: .seconds(60)) {
                    $0.payloadString == "connected"
                }
                try await recorder.waitFor("homeassistant/device/fleet_belt_front-belt/config", after: mark) {
                    $0.payloadString?.contains("belt/hall-belt/battery") == true
                }
                _ = try await home.control(
                    [
                        "wait-state", "--entity", "sensor.belt_front_belt_battery", "--state", "unavailable", "--not",
                        "--timeout", "60",
                    ], timeout: .seconds(70))
                try await expectKept(before, in: home, besides: 4 * 2, belt: try belt.simulatedID)
                let firedAfterRename = try await home.compassPressFires(
                    automationID, belt: belt, recorder: recorder, id: "hall-belt")
                #expect(firedAfterRename, "the automation made on 0.9.0's entities fired for belt/hall-belt")

                // The grip is forgotten: none of its entities is left behind.
                let gripID = try grip.simulatedID
                let forget = recorder.mark
                try recorder.publish("gatt2mqtt/test/request/forget", #"{"address":"\#(gripAddress)"}"#)
                try await recorder.waitFor("gatt2mqtt/test/response/forget", after: forget)
                _ = try await home.control(
                    ["wait-gone", "--unique-id-prefix", "gatt2mqtt_fleet_grip_\(gripID)_", "--timeout", "60"],
                    timeout: .seconds(70)
                )
                let left = try await entries(home).keys.filter { $0.contains("grip_\(gripID)") }
                #expect(left.isEmpty, "the forgotten grip's entities: \(left.sorted())")

                // Home Assistant's own echo of the grip's removal (topics.md, "Home Assistant discovery"): for each
                // of its disabled entities (last seen, signal strength) it clears the device config again, and
                // warns that it has nothing to clean up. At most that, and nothing else.
                let echo = "No device components to cleanup for fleet_grip_\(gripID)"
                let lines = home.log.split(separator: "\n")
                #expect(lines.filter { $0.contains(echo) }.count <= 2)
                let complaints = home.complaints(ignoring: HomeAssistantLiveTests.unrelatedWarnings + [echo])
                #expect(complaints.isEmpty, "\(complaints.joined(separator: "\n"))")
            } catch {
                await home.stop()
                throw error
            }
            await home.stop()
            await recorder.stop()
        }
    }

    /// 0.9.0's configs, the simulators' addresses and ids in place of the placeholders.
    private static func fixture(replacing placeholders: [String: String]) throws -> [String: String] {
        let path = ProjectPaths.root + "/Tests/Fixtures/homeassistant-0.9.0/configs.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        for (placeholder, value) in placeholders { text = text.replacingOccurrences(of: placeholder, with: value) }
        let configs = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(configs.count == 55)
        return configs
    }

    /// The gatt2mqtt entities in Home Assistant's registry, by unique id.
    private func entries(_ home: HomeAssistantInstance) async throws -> [String: Entry] {
        let registry = try #require(try await home.control(["registry"]) as? [String: Any])
        var entries: [String: Entry] = [:]
        for entity in registry["entities"] as? [[String: Any]] ?? [] {
            guard let unique = entity["unique_id"] as? String, unique.hasPrefix("gatt2mqtt_"),
                let id = entity["entity_id"] as? String
            else { continue }
            entries[unique] = Entry(entityID: id, deviceID: entity["device_id"] as? String)
        }
        return entries
    }

    /// Every entity of `before` is still there, with its entity id and device; the only new ones are the diagnostics
    /// (`besides` of them: connection, last error, last seen, signal strength where the device had none), on the same
    /// devices; none has an id made of the belt's address, none ends in `_2`.
    private func expectKept(_ before: [String: Entry], in home: HomeAssistantInstance, besides added: Int, belt: String)
        async throws
    {
        let after = try await entries(home)
        for (unique, entry) in before {
            #expect(after[unique] == entry, "\(unique): \(String(describing: after[unique])), was \(entry)")
        }
        let new = after.filter { before[$0.key] == nil }
        let devices = Set(before.values.compactMap(\.deviceID))
        #expect(
            new.values.allSatisfy { $0.deviceID.map(devices.contains) == true }, "new entities on new devices: \(new)")
        #expect(new.keys.allSatisfy { !$0.contains(belt) }, "\(new.keys.sorted())")
        #expect(after.values.allSatisfy { !$0.entityID.hasSuffix("_2") }, "\(after.values.map(\.entityID).sorted())")
        #expect(new.count >= added, "the diagnostics joined: \(new.keys.sorted())")
    }
}
