import MQTT
import TestSupport
import Testing

@testable import Bridge

/// `homeassistant.discovery` changed between two runs on the same broker, in memory: what Home Assistant holds moves
/// as it documents (`DiscoveryMigration`): every old config of an entity that lives on is asked to migrate, all of
/// them are cleared once the pause is over, and only then come the new configs, with the same unique ids. Devices
/// without a session here that the gateway keeps move too; nothing else is touched.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DiscoveryMigrationTests {
    static let belt = "00:11:22:33:44:66"
    static let hex = "001122334466"

    private func mode(_ mode: HomeAssistantDiscoveryMode) -> (inout BridgeConfiguration) -> Void {
        { $0.homeAssistant.discovery = mode }
    }

    /// The unique ids in a retained config, per entity or per device.
    private func uniqueIDs(_ payload: String) -> Set<String> {
        guard case .object(let config)? = JSONValue.parse(Array(payload.utf8)) else { return [] }
        if case .object(let components)? = config["components"] {
            return Set(components.values.compactMap { HomeAssistantIdentityTests.members($0)?["unique_id"]?.string })
        }
        return Set([config["unique_id"]?.string].compactMap { $0 })
    }

    private func index(of topic: String, payload: String, in messages: ArraySlice<MQTTMessage>) -> Int? {
        messages.indices.first { messages[$0].topic == topic && (messages[$0].payloadString ?? "") == payload }
    }

    @Test func perEntityConfigsMigrateToADeviceConfigAndBack() async throws {
        try await InMemoryWorld.with { world in
            let node = "test_belt_\(Self.hex)"
            let deviceTopic = "homeassistant/device/\(node)/config"
            let byEntity = try await InMemoryGateway.start(in: world, configure: mode(.entity))
            let entityTopics = try await withCleanUp({ await byEntity.stop() }) {
                _ = await byEntity.connect(InMemoryDevices.belt(address: Self.belt), family: "belt")
                await world.probe.next(on: "homeassistant/sensor/\(node)/battery/config")
                await world.probe.next(on: "homeassistant/sensor/gatt2mqtt_test/version/config")
                return world.broker.retainedTopics("homeassistant/+/+/+/config")
            }
            let ids = Set(entityTopics.flatMap { uniqueIDs(world.broker.retained($0)?.payloadString ?? "") })
            #expect(entityTopics.count > 30 && ids.count > 20, "\(entityTopics)")

            // Per device: the requests, then the clears, then the device configs.
            let migrating = world.probe.mark
            let byDevice = try await InMemoryGateway.start(in: world, configure: mode(.device))
            try await withCleanUp({ await byDevice.stop() }) {
                _ = await byDevice.connect(InMemoryDevices.belt(address: Self.belt), family: "belt")
                await world.probe.next(on: deviceTopic, after: migrating)
                await world.probe.next(on: "homeassistant/device/gatt2mqtt_test/config", after: migrating)
                let messages = world.probe.messages[migrating...]
                let config = try #require(
                    index(of: deviceTopic, payload: world.probe.payloads(on: deviceTopic).last ?? "", in: messages))
                for topic in entityTopics where topic.contains(node) {
                    let cleared = try #require(index(of: topic, payload: "", in: messages), "\(topic) cleared")
                    #expect(cleared < config, "\(topic) cleared before the device config")
                    if let requested = index(of: topic, payload: DiscoveryMigration.request, in: messages) {
                        #expect(requested < cleared)
                        #expect(!topic.contains("/device_automation/"), "a trigger is cleared, not migrated")
                    } else {
                        #expect(topic.contains("/device_automation/"), "\(topic) asked to migrate")
                    }
                }
                #expect(world.broker.retainedTopics("homeassistant/+/+/+/config").isEmpty, "none left per entity")
                let now = world.broker.retainedTopics("homeassistant/device/+/config")
                #expect(Set(now) == [deviceTopic, "homeassistant/device/gatt2mqtt_test/config"])
                #expect(Set(now.flatMap { uniqueIDs(world.broker.retained($0)?.payloadString ?? "") }) == ids)
                #expect(!byDevice.log.lines.contains { $0.contains("swept") }, "migrated, not swept")
            }

            // And back: the device config asked to migrate, cleared, then the configs per entity.
            let rollingBack = world.probe.mark
            let again = try await InMemoryGateway.start(in: world, configure: mode(.entity))
            try await withCleanUp({ await again.stop() }) {
                _ = await again.connect(InMemoryDevices.belt(address: Self.belt), family: "belt")
                let battery = "homeassistant/sensor/\(node)/battery/config"
                await world.probe.next(on: battery, after: rollingBack)
                let messages = world.probe.messages[rollingBack...]
                let requested = try #require(index(of: deviceTopic, payload: DiscoveryMigration.request, in: messages))
                let cleared = try #require(index(of: deviceTopic, payload: "", in: messages))
                let config = try #require(messages.indices.first { messages[$0].topic == battery })
                #expect(requested < cleared && cleared < config)
                #expect(world.broker.retainedTopics("homeassistant/device/+/config").isEmpty)
                // The belt's configs and the gateway's end their pauses apart, each sent in a loop of its own: every one
                // of them, and nothing else.
                for topic in entityTopics { await world.probe.next(on: topic, after: rollingBack) }
                #expect(Set(world.broker.retainedTopics("homeassistant/+/+/+/config")) == Set(entityTopics))
            }
        }
    }

    /// A device allowed but away keeps its entities, moved to a device config by the sweep; a forgotten device's
    /// configs per entity are cleared, not migrated; a stranger's are left alone.
    @Test func theSweepMigratesKeptDevicesAndClearsTheRest() async throws {
        let away = "00:11:22:33:44:77"
        let forgotten = "00:11:22:33:44:88"
        try await InMemoryWorld.with { world in
            let seeded = [
                ("test_belt_001122334477", away), ("test_belt_001122334488", forgotten), ("zigbee2mqtt_0x1", away),
            ]
            for (node, address) in seeded {
                try world.publish(
                    "homeassistant/sensor/\(node)/battery/config",
                    HomeAssistantIdentityTests.config(node: node, address: address), retain: true)
            }
            let mark = world.probe.mark
            let gateway = try await InMemoryGateway.start(in: world) { $0.autoConnect = .allowList([away]) }
            try await withCleanUp({ await gateway.stop() }) {
                await world.probe.next(on: "homeassistant/device/test_belt_001122334477/config", after: mark)
                let messages = world.probe.messages[mark...]
                let keptTopic = "homeassistant/sensor/test_belt_001122334477/battery/config"
                #expect(index(of: keptTopic, payload: DiscoveryMigration.request, in: messages) != nil)
                #expect(world.broker.retained(keptTopic) == nil)
                let forgottenTopic = "homeassistant/sensor/test_belt_001122334488/battery/config"
                #expect(index(of: forgottenTopic, payload: DiscoveryMigration.request, in: messages) == nil)
                await world.probe.next(on: forgottenTopic, after: mark) { $0.isEmpty }
                #expect(world.broker.retained("homeassistant/sensor/zigbee2mqtt_0x1/battery/config") != nil)
                let config = world.broker.retained("homeassistant/device/test_belt_001122334477/config")?.payloadString
                let ids = uniqueIDs(config ?? "")
                #expect(ids.contains("gatt2mqtt_test_belt_001122334477_battery"))
            }
        }
    }
}
