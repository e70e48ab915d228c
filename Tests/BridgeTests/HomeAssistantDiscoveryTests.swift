import Foundation
import Testing

@testable import Bridge

/// The discovery payloads against Home Assistant's MQTT integration: the keys each platform requires
/// (state_topic for sensor, binary_sensor and event; command_topic and options for select; automation_type,
/// topic, type, subtype and device for device triggers), a device block, and unique ids with the gateway.
struct HomeAssistantDiscoveryTests {
    static let required: [String: [String]] = [
        "sensor": ["state_topic"], "binary_sensor": ["state_topic"], "select": ["command_topic", "options"],
        "event": ["state_topic", "event_types"], "device_automation": ["automation_type", "topic", "type", "subtype", "device"],
    ]

    let discovery = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"))

    private func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(arguments: DeviceFamily.allCases)
    func everyConfigHasWhatHomeAssistantRequires(family: DeviceFamily) throws {
        let device = HomeAssistantDiscovery.Device(
            family: family, id: "001122334451", address: "00:11:22:33:44:51", name: "Dev", model: FamilyDrivers.of(family).homeAssistant)
        let configs = discovery.configs(for: device)
        #expect(!configs.isEmpty)
        var uniqueIDs: Set<String> = []
        for config in configs {
            #expect(config.retain && config.qos == 1)
            let parts = config.topic.split(separator: "/").map(String.init)
            #expect(parts.count == 5 && parts[0] == "homeassistant" && parts[4] == "config", "\(config.topic)")
            #expect(parts[2] == "hall_\(family.rawValue)_001122334451", "the node id names gateway, family and device")
            let component = parts[1]
            let payload = try parse(config.payload)
            for key in try #require(Self.required[component], "unknown component \(component)") {
                #expect(payload[key] != nil, "\(component) \(parts[3]) lacks \(key)")
            }
            let deviceBlock = try #require(payload["device"] as? [String: Any])
            #expect((deviceBlock["identifiers"] as? [String]) == ["gatt2mqtt_hall_\(family.rawValue)_001122334451"])
            #expect(deviceBlock["via_device"] as? String == "gatt2mqtt_hall")
            guard component != "device_automation" else { continue }
            #expect(payload["origin"] as? [String: String] == ["name": "gatt2mqtt", "sw_version": Gatt2MQTTVersion.current])
            let objectID = "\(family.rawValue)_001122334451_\(parts[3])"
            #expect(payload["object_id"] as? String == objectID, "for Home Assistant before 2025.10")
            #expect(payload["default_entity_id"] as? String == "\(component).\(objectID)", "for 2025.10 and later")
            #expect((payload["entity_category"] as? String == "diagnostic") == (parts[3] == "battery"), "\(parts[3]) is diagnostic only if a battery")
            let uniqueID = try #require(payload["unique_id"] as? String)
            #expect(uniqueID.hasPrefix("gatt2mqtt_hall_"))
            #expect(uniqueIDs.insert(uniqueID).inserted, "unique ids are unique")
            let availability = try #require(payload["availability"] as? [[String: Any]])
            #expect(availability.compactMap { $0["topic"] as? String } == ["gatt2mqtt/hall/status", "\(family.rawValue)/001122334451/connection"])
            #expect(payload["availability_mode"] as? String == "all")
            for key in ["state_topic", "command_topic"] {
                if let topic = payload[key] as? String {
                    #expect(topic.hasPrefix("\(family.rawValue)/001122334451/"), "\(key) \(topic) belongs to the device")
                }
            }
        }
        #expect(discovery.removals(for: device).map(\.topic) == configs.map(\.topic))
        #expect(discovery.removals(for: device).allSatisfy { $0.payload.isEmpty && $0.retain })
    }

    @Test func beltButtonsAreDeviceTriggersAndModeIsASelect() throws {
        let configs = discovery.configs(for: .init(family: .belt, id: "a", address: "00:00:00:00:00:0A", name: nil, model: BeltDriver().homeAssistant))
        let triggers = configs.filter { $0.topic.contains("/device_automation/") }
        #expect(triggers.count == 8)
        let pauseShort = try parse(try #require(triggers.first { $0.topic.contains("/pause_short/") }).payload)
        #expect(pauseShort["payload"] as? String == "pause_short")
        #expect(pauseShort["topic"] as? String == "belt/a/button")
        let mode = try parse(try #require(configs.first { $0.topic.contains("/select/") }).payload)
        #expect((mode["options"] as? [String])?.contains("app") == true)
        #expect(mode["command_topic"] as? String == "belt/a/cmd/mode")
    }

    @Test func theGatewayIsAConnectivitySensor() throws {
        let config = discovery.gatewayConfig()
        #expect(config.topic == "homeassistant/binary_sensor/gatt2mqtt_hall/status/config")
        let payload = try parse(config.payload)
        #expect(payload["state_topic"] as? String == "gatt2mqtt/hall/status")
        #expect(payload["device_class"] as? String == "connectivity")
        let device = try #require(payload["device"] as? [String: Any])
        #expect(device["sw_version"] as? String == Gatt2MQTTVersion.current)
        #expect(payload["default_entity_id"] as? String == "binary_sensor.gatt2mqtt_hall_status")
        #expect(payload["entity_category"] as? String == "diagnostic")
    }

    /// An entity id has lower-case letters, digits and `_` only, whatever an alias or a gateway's name holds.
    @Test func entityIDsAreSlugs() {
        #expect(HomeAssistantDiscovery.entityID("sensor", "belt_hall-Belt_heading") == "sensor.belt_hall_belt_heading")
        #expect(HomeAssistantDiscovery.entityID("binary_sensor", "gatt2mqtt_site_gw-2_status") == "binary_sensor.gatt2mqtt_site_gw_2_status")
    }

    /// In a fleet a device is one Home Assistant device whichever gateway announces it: the same ids from
    /// every gateway, and availability from the device's own connection only.
    @Test func inAFleetEveryGatewayAnnouncesTheSameDevice() throws {
        let device = HomeAssistantDiscovery.Device(
            family: .belt, id: "001122334451", address: "00:11:22:33:44:51", name: "Belt", model: BeltDriver().homeAssistant)
        let configs = ["gw-a", "gw-b"].map { HomeAssistantDiscovery(topics: TopicMap(gateway: $0, baseTopic: "site"), fleet: true).configs(for: device) }
        #expect(configs[0].map(\.topic) == configs[1].map(\.topic))
        let heading = try #require(configs[1].first { $0.topic == "homeassistant/sensor/site_belt_001122334451/heading/config" })
        let payload = try parse(heading.payload)
        #expect(payload["unique_id"] as? String == "gatt2mqtt_site_belt_001122334451_heading")
        let availability = try #require(payload["availability"] as? [[String: Any]])
        #expect(availability.map { $0["topic"] as? String } == ["site/belt/001122334451/connection"])
        let deviceBlock = try #require(payload["device"] as? [String: Any])
        #expect(deviceBlock["via_device"] as? String == "gatt2mqtt_site_gw-b", "the announcing gateway")
        let unprefixed = HomeAssistantDiscovery(topics: TopicMap(gateway: "gw-a"), fleet: true).configs(for: device)
        #expect(unprefixed.contains { $0.topic == "homeassistant/sensor/fleet_belt_001122334451/heading/config" })
    }
}
