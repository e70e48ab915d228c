import Foundation
import Testing

@testable import Bridge

/// `homeassistant.discovery: device` (the default): one retained config per device that carries, as components, what
/// the configs per entity carry one by one, so that Home Assistant builds the same entities from either; and the
/// migration between the two modes (`DiscoveryMigration`).
struct DeviceDiscoveryTests {
    let byDevice = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), fleet: true)
    let byEntity = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), fleet: true, mode: .entity)

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func device(_ family: DeviceFamily) -> HomeAssistantDiscovery.Device {
        HomeAssistantDiscovery.Device(
            family: family, id: "001122334451", address: "00:11:22:33:44:51", identity: "001122334451", name: "Dev",
            model: FamilyDrivers.of(family).homeAssistant, firmware: "1.2")
    }

    /// Each entity's config, without its device block and origin and with its platform, is its component: member for
    /// member, the device config says what the configs per entity say.
    private func expectFolded(_ entityConfigs: [Publication], into deviceConfigs: [Publication], node: String) throws {
        let config = try #require(deviceConfigs.count == 1 ? deviceConfigs.first : nil, "one config")
        #expect(config.topic == "homeassistant/device/\(node)/config")
        #expect(config.retain && config.qos == 1)
        let payload = try object(config.payload)
        let components = try #require(payload["components"] as? [String: Any])
        let entities = entityConfigs.filter { !$0.payload.isEmpty }
        #expect(components.count == entities.count, "a component for each entity")
        for entity in entities {
            let parts = entity.topic.split(separator: "/").map(String.init)
            var expected = try object(entity.payload)
            #expect(
                try JSONSerialization.data(withJSONObject: expected["device"] as Any, options: .sortedKeys)
                    == JSONSerialization.data(withJSONObject: payload["device"] as Any, options: .sortedKeys))
            #expect(expected["origin"] as? [String: String] == payload["origin"] as? [String: String])
            expected["device"] = nil
            expected["origin"] = nil
            expected["platform"] = parts[1]
            let component = try #require(components[parts[3]], "component \(parts[3])")
            #expect(
                try JSONSerialization.data(withJSONObject: component, options: .sortedKeys)
                    == JSONSerialization.data(withJSONObject: expected, options: .sortedKeys), "\(parts[3])")
        }
    }

    /// What is chosen for one device (`DeviceOptions`) in both modes: its name in the device block; a hidden entity, and
    /// one that reads a stream that is off, left out (per entity: an empty config, which removes it); a choice of
    /// enabled or disabled overriding what the family declares, the stream's too.
    @Test func aDevicesOwnChoicesReachEitherMode() throws {
        var belt = device(.belt)
        belt.streamLeaves = FamilyDrivers.of(.belt).streamLeaves
        belt.options = DeviceOptions(
            name: "Front belt", entities: ["battery": .hidden, "mode": .disabled, "rssi": .enabled], streaming: false)
        let perEntity = byEntity.configs(for: belt)
        let emptied = Set(perEntity.filter { $0.payload.isEmpty }.map { $0.topic.split(separator: "/")[3] })
        #expect(emptied.isSuperset(of: ["battery", "heading"]))
        #expect(!emptied.contains("mode") && !emptied.contains("charging"), "only those hidden")
        try expectFolded(perEntity, into: byDevice.configs(for: belt), node: "fleet_belt_001122334451")

        let payload = try object(try #require(byDevice.configs(for: belt).first).payload)
        #expect((payload["device"] as? [String: Any])?["name"] as? String == "Front belt")
        let components = try #require(payload["components"] as? [String: [String: Any]])
        #expect(components["battery"] == nil && components["heading"] == nil)
        #expect(components["mode"]?["enabled_by_default"] as? Bool == false, "chosen disabled")
        #expect(components["rssi"] != nil && components["rssi"]?["enabled_by_default"] == nil, "chosen enabled")

        // A stream's entity chosen enabled is announced, enabled, while the stream is off.
        belt.options.entities["heading"] = .enabled
        let chosen = try object(try #require(byDevice.configs(for: belt).first).payload)
        let heading = try #require((chosen["components"] as? [String: [String: Any]])?["heading"])
        #expect(heading["enabled_by_default"] == nil)
    }

    @Test(arguments: DeviceFamily.allCases)
    func aDeviceConfigCarriesEveryEntity(family: DeviceFamily) throws {
        let device = device(family)
        try expectFolded(
            byEntity.configs(for: device), into: byDevice.configs(for: device),
            node: "fleet_\(family.rawValue)_001122334451")
        #expect(
            byDevice.removals(for: device) == [
                .state("homeassistant/device/fleet_\(family.rawValue)_001122334451/config", "")
            ])
        #expect(
            byDevice.configTopics(for: device) == ["homeassistant/device/fleet_\(family.rawValue)_001122334451/config"])
    }

    @Test func theGatewaysConfigCarriesEveryEntity() throws {
        try expectFolded(byEntity.gatewayConfigs(), into: byDevice.gatewayConfigs(), node: "gatt2mqtt_hall")
        let components = try #require(try object(byDevice.gatewayConfigs()[0].payload)["components"] as? [String: Any])
        let status = try #require(components["status"] as? [String: Any])
        #expect(status["availability"] == nil, "the status itself says when the gateway is offline")
        #expect((components["version"] as? [String: Any])?["availability"] != nil)
    }

    /// Outside a fleet before, per entity under the device's MQTT id (0.8.0) or per device under its identity: both go.
    @Test func aFleetGatewayClearsPerGatewayDeviceConfigsToo() {
        let removals = byDevice.perGatewayRemovals(for: device(.belt)).map(\.topic)
        #expect(removals.contains("homeassistant/device/hall_belt_001122334451/config"))
        #expect(removals.contains("homeassistant/sensor/hall_belt_001122334451/battery/config"))
        #expect(!byEntity.perGatewayRemovals(for: device(.belt)).contains { $0.topic.contains("/device/") })
    }

    /// Per entity to per device: every entity the device config carries is asked to migrate (a device trigger, which
    /// has no entity, and a retired entity are only cleared), and every old config is cleared.
    @Test func migratingToADeviceConfig() {
        let device = device(.cpr)
        let node = "fleet_cpr_001122334451"
        let old = Set(byEntity.configs(for: device).filter { !$0.payload.isEmpty }.map(\.topic))
            .union(["homeassistant/sensor/\(node)/mode/config"])
        let migration = byDevice.migration(for: device, from: old.union(["homeassistant/device/\(node)/config"]))
        #expect(Set(migration.cleared) == old)
        #expect(!migration.migrated.contains("homeassistant/sensor/\(node)/mode/config"), "retired")
        #expect(migration.migrated.contains("homeassistant/select/\(node)/mode/config"))
        #expect(migration.migrated.count == old.count - 1)
        #expect(migration.requests.allSatisfy { $0.payload == #"{"migrate_discovery":true}"# && $0.retain })
        #expect(migration.clears.allSatisfy { $0.payload.isEmpty && $0.retain })

        let belt = self.device(.belt)
        let triggers = byEntity.configs(for: belt).map(\.topic).filter { $0.contains("/device_automation/") }
        let beltMigration = byDevice.migration(for: belt, from: Set(byEntity.configTopics(for: belt)))
        #expect(triggers.count == 8)
        #expect(Set(triggers).isSubset(of: Set(beltMigration.cleared)))
        #expect(Set(triggers).isDisjoint(with: Set(beltMigration.migrated)))
        #expect(byDevice.migration(for: belt, from: byDevice.configTopics(for: belt)).isEmpty, "nothing to move")
    }

    /// Per device back to per entity: the device config is asked to migrate, then cleared.
    @Test func migratingBackToConfigsPerEntity() {
        let device = device(.grip)
        let topic = "homeassistant/device/fleet_grip_001122334451/config"
        let migration = byEntity.migration(for: device, from: Set([topic]).union(byEntity.configTopics(for: device)))
        #expect(migration == DiscoveryMigration(migrated: [topic], cleared: [topic]))
        #expect(byEntity.migration(for: device, from: byEntity.configTopics(for: device)).isEmpty)
        #expect(
            byEntity.gatewayMigration(from: ["homeassistant/device/gatt2mqtt_hall/config"]).cleared == [
                "homeassistant/device/gatt2mqtt_hall/config"
            ])
    }
}
