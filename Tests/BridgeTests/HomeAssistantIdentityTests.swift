import Foundation
import MQTT
import TestSupport
import Testing

@testable import Bridge

/// Issue #44, items 1 and 2: a device's Home Assistant identity comes from its address and never moves (an alias
/// given or changed later moves nothing; an identity Home Assistant already knows from an earlier release is kept,
/// in the ledger too), and after each announcement every retained config of the gateway's kind that nothing
/// announces is swept, strangers' configs untouched. With configs per entity: `DiscoveryMigrationTests` has the
/// same with a config per device.
@Suite(.serialized)
struct HomeAssistantIdentityTests {
    static let belt = "00:11:22:33:44:66"
    static let hex = "001122334466"

    /// A retained config as a gatt2mqtt gateway (this one, an earlier release of it) publishes it: the device block
    /// names its node (the gateway's node is its identifier already) and the device's address.
    static func config(node: String, address: String?, field: String = "state_topic") -> String {
        let identifier = node.hasPrefix("gatt2mqtt_") ? node : "gatt2mqtt_\(node)"
        var device: [String: JSONValue] = ["identifiers": .array([.string(identifier)]), "name": .string("x")]
        if let address { device["connections"] = .array([.array([.string("mac"), .string(address.lowercased())])]) }
        return JSONValue.object([
            field: .string("belt/x/battery"), "device": .object(device),
            "unique_id": .string("gatt2mqtt_\(node)_battery"),
        ]).text
    }

    static func members(_ payload: [UInt8]) -> [String: JSONValue]? {
        guard case .object(let members)? = JSONValue.parse(payload) else { return nil }
        return members
    }

    static func members(_ value: JSONValue?) -> [String: JSONValue]? {
        guard case .object(let members)? = value else { return nil }
        return members
    }

    private func stateFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-identity-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    private func uniqueIDs(_ broker: InMemoryBroker, node: String) -> [String] {
        broker.retainedTopics("homeassistant/+/\(node)/+/config").compactMap { topic in
            guard case .object(let config)? = JSONValue.parse(broker.retained(topic)?.payload ?? []) else { return nil }
            return config["unique_id"]?.string
        }
    }

    @Test func anAliasGivenOrChangedLaterMovesNothing() async throws {
        let folder = try stateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let first = try await InMemoryGateway.start(in: world) {
                $0.stateDirectory = folder
                $0.homeAssistant.discovery = .entity
            }
            try await withCleanUp({ await first.stop() }) {
                _ = await first.connect(InMemoryDevices.belt(address: Self.belt), family: "belt")
                await world.probe.next(on: "homeassistant/sensor/test_belt_\(Self.hex)/battery/config")
            }
            let before = Set(uniqueIDs(world.broker, node: "test_belt_\(Self.hex)"))
            #expect(before.contains("gatt2mqtt_test_belt_\(Self.hex)_battery"))

            // The belt gets an alias: its topics move to the alias, its Home Assistant identity stays.
            let mark = world.probe.mark
            let second = try await InMemoryGateway.start(in: world) {
                $0.stateDirectory = folder
                $0.homeAssistant.discovery = .entity
                $0.aliases = [Self.belt: "front"]
            }
            try await withCleanUp({ await second.stop() }) {
                second.central.add(InMemoryDevices.belt(address: Self.belt), on: nil, rssi: -60)
                await second.probe.next(on: "belt/front/connection", after: mark) { $0 == "connected" }
                let battery = await world.probe.next(
                    on: "homeassistant/sensor/test_belt_\(Self.hex)/battery/config", after: mark
                ) {
                    $0.contains("belt/front/battery")
                }
                let config = try #require(Self.members(battery.payload))
                #expect(config["unique_id"]?.string == "gatt2mqtt_test_belt_\(Self.hex)_battery")
                // The alias names the device in Home Assistant.
                #expect(Self.members(config["device"])?["name"]?.string == "front")
                #expect(world.broker.retainedTopics("homeassistant/+/test_belt_front/+/config").isEmpty)
                #expect(Set(uniqueIDs(world.broker, node: "test_belt_\(Self.hex)")) == before)
            }
        }
    }

    /// An upgrade from 0.9.0, whose configs of an aliased belt are under its alias: the belt keeps that identity (Home
    /// Assistant's entities, history and automations stay its own), and the ledger keeps it when the broker has lost
    /// every retained config.
    @Test func anIdentityHomeAssistantAlreadyKnowsIsKept() async throws {
        let folder = try stateFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let legacy = "test_belt_front"
        try await InMemoryWorld.with { world in
            try world.publish(
                "homeassistant/sensor/\(legacy)/battery/config", Self.config(node: legacy, address: Self.belt),
                retain: true)
            let upgraded = try await InMemoryGateway.start(in: world) {
                $0.stateDirectory = folder
                $0.homeAssistant.discovery = .entity
                $0.aliases = [Self.belt: "front"]
            }
            try await withCleanUp({ await upgraded.stop() }) {
                let mark = world.probe.mark
                upgraded.central.add(InMemoryDevices.belt(address: Self.belt), on: nil, rssi: -60)
                await world.probe.next(on: "homeassistant/sensor/\(legacy)/heading/config", after: mark)
                #expect(uniqueIDs(world.broker, node: legacy).contains("gatt2mqtt_\(legacy)_heading"))
                #expect(world.broker.retainedTopics("homeassistant/+/test_belt_\(Self.hex)/+/config").isEmpty)
            }
            let ledger = try String(contentsOfFile: folder + "/identities.json", encoding: .utf8)
            #expect(ledger == #"{"belt/\#(Self.belt)":"front"}"#)

            // The broker loses everything; the alias changes too. The identity stays.
            for topic in world.broker.retainedTopics("homeassistant/#") { try world.publish(topic, "", retain: true) }
            let restarted = try await InMemoryGateway.start(in: world) {
                $0.stateDirectory = folder
                $0.homeAssistant.discovery = .entity
                $0.aliases = [Self.belt: "back"]
            }
            try await withCleanUp({ await restarted.stop() }) {
                let mark = world.probe.mark
                restarted.central.add(InMemoryDevices.belt(address: Self.belt), on: nil, rssi: -60)
                await world.probe.next(on: "homeassistant/sensor/\(legacy)/battery/config", after: mark) {
                    $0.contains("belt/back/battery")
                }
                #expect(world.broker.retainedTopics("homeassistant/+/test_belt_\(Self.hex)/+/config").isEmpty)
                #expect(world.broker.retainedTopics("homeassistant/+/test_belt_back/+/config").isEmpty)
            }
        }
    }

    /// After its announcement the gateway clears every retained config of its kind that nothing announces: a
    /// forgotten device's, a retired entity's (a device's and its own), an identity a device no longer goes by. A
    /// device that is allowed but away keeps its configs; strangers' configs, and configs under its node prefix whose
    /// device block is not its own, are left alone. Home Assistant's birth brings another sweep.
    @Test func theSweepClearsWhatNothingAnnounces() async throws {
        let away = "00:11:22:33:44:77"
        let forgotten = "00:11:22:33:44:88"
        try await InMemoryWorld.with { world in
            let seeded: [(String, String)] = [
                (
                    "homeassistant/sensor/test_belt_001122334488/battery/config",
                    Self.config(node: "test_belt_001122334488", address: forgotten)
                ),
                (
                    "homeassistant/sensor/test_belt_001122334477/battery/config",
                    Self.config(node: "test_belt_001122334477", address: away)
                ),
                (
                    "homeassistant/sensor/test_belt_\(Self.hex)/retired_thing/config",
                    Self.config(node: "test_belt_\(Self.hex)", address: Self.belt)
                ),
                (
                    "homeassistant/sensor/test_belt_old-alias/battery/config",
                    Self.config(node: "test_belt_old-alias", address: Self.belt)
                ),
                (
                    "homeassistant/sensor/gatt2mqtt_test/retired_thing/config",
                    Self.config(node: "gatt2mqtt_test", address: nil)
                ),
                (
                    "homeassistant/sensor/zigbee2mqtt_0x1/battery/config",
                    Self.config(node: "zigbee2mqtt_0x1", address: forgotten)
                ),
                (
                    "homeassistant/sensor/test_belt_lookalike/battery/config",
                    Self.config(node: "someone_else", address: forgotten)
                ),
            ]
            for (topic, payload) in seeded { try world.publish(topic, payload, retain: true) }
            let gateway = try await InMemoryGateway.start(in: world) {
                $0.autoConnect = .allowList([Self.belt, away])
                $0.homeAssistant.discovery = .entity
            }
            try await withCleanUp({ await gateway.stop() }) {
                _ = await gateway.connect(InMemoryDevices.belt(address: Self.belt), family: "belt")
                await world.probe.next(on: "homeassistant/sensor/test_belt_\(Self.hex)/battery/config")
                let swept = [
                    "test_belt_001122334488/battery", "test_belt_\(Self.hex)/retired_thing",
                    "test_belt_old-alias/battery", "gatt2mqtt_test/retired_thing",
                ]
                for config in swept {
                    await world.probe.next(on: "homeassistant/sensor/\(config)/config") { $0.isEmpty }
                }
                for config in swept {
                    #expect(world.broker.retained("homeassistant/sensor/\(config)/config") == nil, "\(config)")
                }
                for kept in [
                    "test_belt_001122334477/battery", "zigbee2mqtt_0x1/battery", "test_belt_lookalike/battery",
                ] {
                    #expect(world.broker.retained("homeassistant/sensor/\(kept)/config") != nil, "\(kept)")
                }
                #expect(
                    gateway.log.lines.contains {
                        $0.contains("swept retained Home Assistant configs nothing announces")
                            && $0.contains("configs=4")
                    })

                // A config left over later (another release's gateway, a hand-made one) goes with the next birth.
                let late = "homeassistant/sensor/test_belt_001122334488/rssi/config"
                try world.publish(late, Self.config(node: "test_belt_001122334488", address: forgotten), retain: true)
                let mark = world.probe.mark
                try world.publish("homeassistant/status", "online")
                await world.probe.next(on: late, after: mark) { $0.isEmpty }
                #expect(world.broker.retained("homeassistant/sensor/test_belt_001122334477/battery/config") != nil)
            }
        }
    }

    /// The configs kept in mind are bounded: strangers' are never kept, and of the gateway's kind at most `limit`.
    @Test func theKeptConfigsAreBounded() {
        var configs = OwnConfigs(
            prefix: "homeassistant", nodePrefixes: ["fleet_", "hall_"], gatewayNode: "gatt2mqtt_hall")
        configs.limit = 100
        for index in 0..<1_000 {
            let node = "zigbee2mqtt_0x\(index)"
            let taken = configs.take(
                topic: "homeassistant/sensor/\(node)/battery/config",
                payload: Array(Self.config(node: node, address: Self.belt).utf8))
            #expect(taken)
        }
        #expect(configs.count == 0)
        for index in 0..<1_000 {
            let node = String(format: "fleet_belt_%012x", index)
            _ = configs.take(
                topic: "homeassistant/sensor/\(node)/battery/config",
                payload: Array(Self.config(node: node, address: Self.belt).utf8))
        }
        #expect(configs.count == 100 && configs.overflowed == 900)
        // Not configs: another depth, another prefix.
        let shallow = configs.take(topic: "homeassistant/sensor/fleet_belt_1/config", payload: [])
        let elsewhere = configs.take(topic: "other/sensor/fleet_belt_1/battery/config", payload: [])
        #expect(!shallow && !elsewhere)
        // A removal frees its place.
        let removed = configs.take(topic: "homeassistant/sensor/fleet_belt_000000000000/battery/config", payload: [])
        #expect(removed)
        #expect(configs.count == 99)
        // The identity Home Assistant knows a device by, under the prefix that is asked about.
        #expect(configs.identities(of: .belt, at: Self.belt.lowercased(), under: "fleet_").count == 99)
        #expect(configs.identities(of: .cpr, at: Self.belt, under: "fleet_").isEmpty)
    }
}
