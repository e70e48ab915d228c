import Foundation
import Testing

@testable import Bridge

/// The discovery payloads against Home Assistant's MQTT integration: the keys each platform requires
/// (state_topic for sensor, binary_sensor and event; command_topic and options for select; command_topic
/// for button, switch and number; automation_type, topic, type, subtype and device for device triggers), a
/// device block, and unique ids with the gateway.
struct HomeAssistantDiscoveryTests {
    static let required: [String: [String]] = [
        "sensor": ["state_topic"], "binary_sensor": ["state_topic"], "select": ["command_topic", "options"],
        "event": ["state_topic", "event_types"],
        "device_automation": ["automation_type", "topic", "type", "subtype", "device"],
        "button": ["command_topic", "payload_press"], "switch": ["command_topic", "payload_on", "payload_off"],
        "number": ["command_topic", "min", "max"],
    ]
    /// The entities shown with the device's state of health rather than among what it measures or does.
    static let diagnostic: Set<String> = [
        "battery", "rssi", "distance", "bonded", "owner", "last_seen", "connection", "error", "charging",
        "time_to_empty", "battery_low", "location",
    ]
    /// The entities that stay available while their device is away: they say so, or what stays true then.
    static let whileGatewayOnline: Set<String> = [
        "last_seen", "connection", "error", "session_in_range", "session_compressions", "session_depth", "session_rate",
        "location",
    ]

    let discovery = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), mode: .entity)

    private func parse(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test(arguments: DeviceFamily.allCases)
    func everyConfigHasWhatHomeAssistantRequires(family: DeviceFamily) throws {
        let device = HomeAssistantDiscovery.Device(
            family: family, id: "001122334451", address: "00:11:22:33:44:51", identity: "001122334451", name: "Dev",
            model: FamilyDrivers.of(family).homeAssistant)
        // Retired entities' configs are cleared (empty payloads): retiredEntitiesAreCleared.
        let configs = discovery.configs(for: device).filter { !$0.payload.isEmpty }
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
            #expect(
                payload["origin"] as? [String: String] == ["name": "gatt2mqtt", "sw_version": Gatt2MQTTVersion.current])
            let objectID = "\(family.rawValue)_001122334451_\(parts[3])"
            #expect(payload["object_id"] as? String == objectID, "for Home Assistant before 2025.10")
            #expect(payload["default_entity_id"] as? String == "\(component).\(objectID)", "for 2025.10 and later")
            #expect(
                (payload["entity_category"] as? String == "diagnostic") == Self.diagnostic.contains(parts[3]),
                "\(parts[3])")
            let uniqueID = try #require(payload["unique_id"] as? String)
            #expect(uniqueID.hasPrefix("gatt2mqtt_hall_"))
            #expect(uniqueIDs.insert(uniqueID).inserted, "unique ids are unique")
            let availability = try #require(payload["availability"] as? [[String: Any]])
            let needed =
                ["gatt2mqtt/hall/status"]
                + (Self.whileGatewayOnline.contains(parts[3]) ? [] : ["\(family.rawValue)/001122334451/connection"])
            #expect(availability.compactMap { $0["topic"] as? String } == needed, "\(parts[3])")
            #expect(payload["availability_mode"] as? String == "all")
            for key in ["state_topic", "command_topic"] {
                if let topic = payload[key] as? String {
                    #expect(
                        topic.hasPrefix("\(family.rawValue)/001122334451/"), "\(key) \(topic) belongs to the device")
                }
            }
        }
        #expect(discovery.removals(for: device).map(\.topic) == configs.map(\.topic))
        #expect(discovery.removals(for: device).allSatisfy { $0.payload.isEmpty && $0.retain })
    }

    @Test func beltButtonsAreDeviceTriggersAndModeIsASelect() throws {
        let configs = discovery.configs(
            for: .init(
                family: .belt, id: "a", address: "00:00:00:00:00:0A", identity: "a", name: nil,
                model: BeltDriver().homeAssistant))
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
        let config = try #require(
            discovery.gatewayConfigs().first { $0.topic == "homeassistant/binary_sensor/gatt2mqtt_hall/status/config" })
        let payload = try parse(config.payload)
        #expect(payload["availability"] == nil, "the status itself says when the gateway is offline")
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
        #expect(
            HomeAssistantDiscovery.entityID("binary_sensor", "gatt2mqtt_site_gw-2_status")
                == "binary_sensor.gatt2mqtt_site_gw_2_status")
    }

    /// In a fleet (the default) a device is one Home Assistant device whichever gateway announces it: the same ids
    /// from every gateway, and availability from the device's own connection and the announcing owner's status.
    @Test func inAFleetEveryGatewayAnnouncesTheSameDevice() throws {
        let device = HomeAssistantDiscovery.Device(
            family: .belt, id: "001122334451", address: "00:11:22:33:44:51", identity: "001122334451", name: "Belt",
            model: BeltDriver().homeAssistant)
        let configs = ["gw-a", "gw-b"].map {
            HomeAssistantDiscovery(topics: TopicMap(gateway: $0, baseTopic: "site"), fleet: true, mode: .entity)
                .configs(for: device)
                .filter { !$0.payload.isEmpty }
        }
        #expect(configs[0].map(\.topic) == configs[1].map(\.topic))
        let heading = try #require(
            configs[1].first { $0.topic == "homeassistant/sensor/site_belt_001122334451/heading/config" })
        let payload = try parse(heading.payload)
        #expect(payload["unique_id"] as? String == "gatt2mqtt_site_belt_001122334451_heading")
        let availability = try #require(payload["availability"] as? [[String: Any]])
        #expect(
            availability.map { $0["topic"] as? String } == [
                "site/gatt2mqtt/gw-b/status", "site/belt/001122334451/connection",
            ])
        let deviceBlock = try #require(payload["device"] as? [String: Any])
        #expect(deviceBlock["via_device"] as? String == "gatt2mqtt_site_gw-b", "the announcing gateway")
        let unprefixed = HomeAssistantDiscovery(topics: TopicMap(gateway: "gw-a"), fleet: true, mode: .entity).configs(
            for: device)
        #expect(unprefixed.contains { $0.topic == "homeassistant/sensor/fleet_belt_001122334451/heading/config" })
    }

    /// A gateway that served a device outside a fleet (`fleet.enabled: false`, the default before 0.9.0) left
    /// per-gateway configs: in the fleet each one is cleared (the announcer sends them first, and the fleet's configs
    /// a pause later, so that Home Assistant has freed each entity id before the same id is asked for again).
    @Test func aFleetGatewayClearsItsPerGatewayConfigs() throws {
        let device = HomeAssistantDiscovery.Device(
            family: .cpr, id: "c1", address: "00:11:22:33:44:C1", identity: "c1", name: nil,
            model: FamilyDrivers.of(.cpr).homeAssistant)
        let alone = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), fleet: false, mode: .entity)
        let fleet = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), fleet: true, mode: .entity)
        let cleared = fleet.perGatewayRemovals(for: device)
        #expect(
            Set(alone.configs(for: device).filter { !$0.payload.isEmpty }.map(\.topic)) == Set(cleared.map(\.topic)))
        #expect(cleared.allSatisfy { $0.retain && $0.payload.isEmpty })
        #expect(fleet.configs(for: device).allSatisfy { $0.topic.contains("/fleet_cpr_c1/") })
        #expect(alone.perGatewayRemovals(for: device).isEmpty, "outside a fleet those are the configs")
    }
}

/// What Home Assistant sends is what the MQTT API takes, and what it reads is what the device topics carry.
struct HomeAssistantControlsTests {
    let discovery = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), mode: .entity)

    private func configs(_ family: DeviceFamily) throws -> [(component: String, object: String, payload: [String: Any])]
    {
        let device = HomeAssistantDiscovery.Device(
            family: family, id: "a", address: "00:00:00:00:00:0A", identity: "a", name: nil,
            model: FamilyDrivers.of(family).homeAssistant)
        return try discovery.configs(for: device).filter { !$0.payload.isEmpty }.map { config in
            let parts = config.topic.split(separator: "/").map(String.init)
            let payload = try #require(
                try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any])
            return (parts[1], parts[3], payload)
        }
    }

    /// Every payload a button, switch, select or number can send is a command its family's parser takes (a
    /// number's bounds included), so a press in Home Assistant never earns an `invalid_value`.
    @Test(arguments: DeviceFamily.allCases)
    func everyControlSendsACommandTheFamilyTakes(family: DeviceFamily) throws {
        let driver = FamilyDrivers.of(family)
        for (component, object, payload) in try configs(family) {
            guard let topic = payload["command_topic"] as? String else { continue }
            let command = try #require(topic.split(separator: "/").last.map(String.init))
            #expect(topic == "\(family.rawValue)/a/cmd/\(command)", "\(object)")
            let sent: [String] =
                switch component {
                case "button": [payload["payload_press"] as? String ?? ""]
                case "switch": [payload["payload_on"] as? String ?? "", payload["payload_off"] as? String ?? ""]
                case "select": payload["options"] as? [String] ?? []
                case "number":
                    [(payload["min"] as? NSNumber)?.intValue, (payload["max"] as? NSNumber)?.intValue].compactMap {
                        $0.map(String.init)
                    }
                default: []
                }
            #expect(!sent.isEmpty, "\(component) \(object) sends something")
            for text in sent {
                let parsed = Result { () throws(CommandError) in
                    try driver.parse(command: command, payload: try CommandPayload(bytes: Array(text.utf8)))
                }
                #expect((try? parsed.get()) != nil, "\(family.rawValue) \(object): \(command) \(text) → \(parsed)")
            }
        }
    }

    @Test func theEntitiesEachFamilyAnnounces() throws {
        func names(_ family: DeviceFamily) throws -> [String] {
            try configs(family).map { "\($0.component) \($0.object)" }.sorted()
        }
        // Every device's diagnostics: its connection, signal strength, when it was last seen and its last error.
        func withDiagnostics(_ names: [String]) -> [String] {
            (names + ["binary_sensor connection", "sensor error", "sensor last_seen", "sensor rssi"]).sorted()
        }
        #expect(
            try names(Activ5Driver.family)
                == withDiagnostics([
                    "binary_sensor squeeze", "button stop", "button tare", "device_automation double_squeeze",
                    "sensor battery", "sensor force",
                    "switch imu", "switch stream",
                ]))
        #expect(
            try names(CPRBandDriver.family)
                == withDiagnostics([
                    "button call", "button evaluate", "button power_off", "button practice", "button ready",
                    "button reset",
                    "select mode", "sensor angle", "sensor battery", "sensor distance", "sensor peak", "sensor rate",
                    "sensor session_compressions", "sensor session_depth", "sensor session_in_range",
                    "sensor session_rate",
                ]))
        #expect(
            try names(GripDriver.family)
                == withDiagnostics([
                    "binary_sensor battery_low", "binary_sensor bonded", "event button", "sensor battery",
                ]))
        let belt = try names(BeltDriver.family)
        #expect(
            belt.filter { !$0.hasPrefix("device_automation") }
                == withDiagnostics([
                    "binary_sensor charging", "button battery_signal", "button pulse_front", "button stop_navigation",
                    "button stop_vibration",
                    "number heading_offset", "number intensity", "select mode", "sensor battery", "sensor heading",
                    "sensor navigation",
                    "sensor time_to_empty", "switch compass_accuracy_signal", "switch navigating",
                ]))
        #expect(belt.count == 26)
    }

    /// The streams faster than a value every few seconds are added disabled, so Home Assistant's recorder does not
    /// write a row for each value; `homeassistant.fast_streams` adds them enabled.
    @Test func fastStreamsAreAddedDisabledUnlessAskedFor() throws {
        func disabled(_ discovery: HomeAssistantDiscovery) throws -> [String] {
            try DeviceFamily.allCases.flatMap { family in
                let device = HomeAssistantDiscovery.Device(
                    family: family, id: "a", address: "00:00:00:00:00:0A", identity: "a", name: nil,
                    model: FamilyDrivers.of(family).homeAssistant)
                return try discovery.configs(for: device).filter { !$0.payload.isEmpty }.compactMap {
                    config -> String? in
                    let payload = try #require(
                        try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any])
                    guard let enabled = payload["enabled_by_default"] as? Bool else { return nil }
                    #expect(!enabled, "only ever sent to disable")
                    return "\(family.rawValue) \(config.topic.split(separator: "/")[3])"
                }
            }.sorted()
        }
        // Signal strength and last seen are every device's, and disabled whatever the setting says (DeviceDiagnostics).
        let diagnostics = DeviceFamily.allCases.flatMap { ["\($0.rawValue) last_seen", "\($0.rawValue) rssi"] }
        #expect(
            try disabled(discovery)
                == (diagnostics + [
                    "a5 force", "belt heading", "cpr angle", "cpr distance", "cpr peak", "cpr rate", "hr energy",
                    "hr heart_rate",
                ]).sorted())
        #expect(
            try disabled(HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), fastStreams: true, mode: .entity))
                == diagnostics.sorted())
    }

    /// Every device's link: connectivity from `connection`, its last error's code with the message as an attribute,
    /// a timestamp from `last_seen`, signal strength in dBm.
    @Test func everyDeviceShowsItsLink() throws {
        let belt = try configs(BeltDriver.family)
        let connection = try #require(belt.first { $0.component == "binary_sensor" && $0.object == "connection" })
            .payload
        #expect(connection["state_topic"] as? String == "belt/a/connection")
        #expect(connection["device_class"] as? String == "connectivity")
        #expect(connection["value_template"] as? String == "{{ 'ON' if value == 'connected' else 'OFF' }}")
        let error = try #require(belt.first { $0.object == "error" }).payload
        #expect(
            error["state_topic"] as? String == "belt/a/error"
                && error["json_attributes_topic"] as? String == "belt/a/error")
        #expect((error["json_attributes_template"] as? String)?.contains("value_json.message") == true)
        let lastSeen = try #require(belt.first { $0.object == "last_seen" }).payload
        #expect(
            lastSeen["device_class"] as? String == "timestamp"
                && lastSeen["state_topic"] as? String == "belt/a/last_seen")
        let rssi = try #require(belt.first { $0.object == "rssi" }).payload
        #expect(rssi["device_class"] as? String == "signal_strength" && rssi["unit_of_measurement"] as? String == "dBm")
    }

    /// What the battery JSON holds besides the level: the belt's charging and time to empty, the grip's `low`; and the
    /// band's last session, whose summary is the attributes of its share in range.
    @Test func batteriesAndSessionsGiveTheirOwnEntities() throws {
        let belt = try configs(BeltDriver.family)
        let charging = try #require(belt.first { $0.object == "charging" }).payload
        #expect(
            charging["state_topic"] as? String == "belt/a/battery"
                && charging["device_class"] as? String == "battery_charging")
        #expect((charging["value_template"] as? String)?.contains("value_json.power == 'charging'") == true)
        let timeToEmpty = try #require(belt.first { $0.object == "time_to_empty" }).payload
        #expect(
            timeToEmpty["device_class"] as? String == "duration"
                && timeToEmpty["unit_of_measurement"] as? String == "min")
        #expect((timeToEmpty["value_template"] as? String)?.contains("value_json.time_to_empty_s / 60") == true)
        let low = try #require(try configs(GripDriver.family).first { $0.object == "battery_low" }).payload
        #expect(low["device_class"] as? String == "battery" && low["state_topic"] as? String == "grip/a/battery")
        let band = try configs(CPRBandDriver.family)
        let inRange = try #require(band.first { $0.object == "session_in_range" }).payload
        #expect(
            inRange["state_topic"] as? String == "cpr/a/session"
                && inRange["json_attributes_topic"] as? String == "cpr/a/session")
        #expect(inRange["unit_of_measurement"] as? String == "%")
    }

    /// The band's compression rate has a state class, as its depth and angle do: Home Assistant keeps its statistics.
    @Test func theCompressionRateIsAMeasurement() throws {
        let rate = try #require(try configs(CPRBandDriver.family).first { $0.object == "rate" })
        #expect(rate.payload["state_class"] as? String == "measurement")
        #expect(rate.payload["unit_of_measurement"] as? String == "/min")
    }

    /// A control that replaced a read-only entity clears the old one's config, so an upgrade leaves none behind.
    @Test func retiredEntitiesAreCleared() {
        let device = HomeAssistantDiscovery.Device(
            family: CPRBandDriver.family, id: "a", address: "00:00:00:00:00:0A", identity: "a", name: nil,
            model: CPRBandDriver(options: CPRBandOptions()).homeAssistant)
        let cleared = discovery.configs(for: device).filter { $0.payload.isEmpty }
        #expect(cleared.map(\.topic) == ["homeassistant/sensor/hall_cpr_a/mode/config"])
        #expect(cleared.allSatisfy { $0.retain })
    }

    /// The firmware, hardware and serial a device reports reach its device block; nothing else changes.
    @Test func infoFillsTheDeviceBlock() throws {
        var device = HomeAssistantDiscovery.Device(
            family: GripDriver.family, id: "a", address: "00:00:00:00:00:0A", identity: "a", name: nil,
            model: GripDriver(profile: .placeholder).homeAssistant)
        let firstTime = device.describe([
            "firmware": JSONValue.string("2.0.0"), "hardware": JSONValue.string("1.0"), "name": JSONValue.string("x"),
        ])
        #expect(firstTime)
        let again = device.describe(["firmware": JSONValue.string("2.0.0"), "hardware": JSONValue.string("1.0")])
        #expect(!again, "the same again changes nothing")
        var belt = HomeAssistantDiscovery.Device(
            family: .belt, id: "b", address: "00:00:00:00:00:0B", identity: "b", name: nil,
            model: BeltDriver().homeAssistant)
        let described = belt.describe(["firmware": JSONValue.number(52), "serial": JSONValue.string("S-1")])
        #expect(described)
        let block = try #require(try configs(of: belt).first?["device"] as? [String: Any])
        #expect(block["sw_version"] as? String == "52")
        #expect(block["serial_number"] as? String == "S-1")
        #expect(block["hw_version"] == nil)
        let grip = try #require(try configs(of: device).first?["device"] as? [String: Any])
        #expect(grip["hw_version"] as? String == "1.0")
    }

    private func configs(of device: HomeAssistantDiscovery.Device) throws -> [[String: Any]] {
        try discovery.configs(for: device).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.payload.utf8)) as? [String: Any])
        }
    }

    /// The gateway's own device: status, version, adapters, connected devices, message rates, a scan button and a
    /// permit-join switch, all unavailable while the gateway is offline but the status itself.
    @Test func theGatewayIsADeviceOfItsOwn() throws {
        let configs = discovery.gatewayConfigs()
        #expect(
            configs.map { $0.topic.split(separator: "/")[3] }.sorted() == [
                "adapters", "connected_devices", "messages_in", "messages_out", "permit_join", "scan", "status",
                "version",
            ])
        for config in configs {
            let payload = try #require(
                try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any])
            #expect((payload["device"] as? [String: Any])?["identifiers"] as? [String] == ["gatt2mqtt_hall"])
            let availability = (payload["availability"] as? [[String: Any]])?.compactMap { $0["topic"] as? String }
            #expect(
                config.topic.contains("/status/") ? availability == nil : availability == ["gatt2mqtt/hall/status"],
                "\(config.topic)")
        }
        let scan = try #require(configs.first { $0.topic == "homeassistant/button/gatt2mqtt_hall/scan/config" })
        #expect(scan.payload.contains(#""command_topic":"gatt2mqtt/hall/request/scan""#))
        let join = try #require(configs.first { $0.topic == "homeassistant/switch/gatt2mqtt_hall/permit_join/config" })
        #expect(join.payload.contains(#""command_topic":"gatt2mqtt/hall/request/permit_join""#))
        #expect(join.payload.contains(#""state_topic":"gatt2mqtt/hall/permit_join""#))
        let request = try GatewayRequest.parse(
            name: "scan", payload: CommandPayload(bytes: Array(#"{"duration_s":10}"#.utf8)))
        #expect(request == .scan(seconds: 10))
    }

    /// The version comes from the retained `version` the gateway publishes with `online`, so Home Assistant shows it at
    /// once rather than at the first health report.
    @Test func theVersionIsReadFromARetainedTopic() throws {
        let version = try #require(
            discovery.gatewayConfigs().first { $0.topic == "homeassistant/sensor/gatt2mqtt_hall/version/config" })
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(version.payload.utf8)) as? [String: Any])
        #expect(payload["state_topic"] as? String == "gatt2mqtt/hall/version")
        #expect(payload["value_template"] == nil, "the payload is the version")
    }

    /// With the live page on, the gateway's device page and every device's link to it; without, none does.
    @Test func deviceBlocksLinkToTheLivePage() throws {
        let device = HomeAssistantDiscovery.Device(
            family: .cpr, id: "a", address: "00:00:00:00:00:0A", identity: "a", name: nil,
            model: FamilyDrivers.of(.cpr).homeAssistant)
        func links(_ discovery: HomeAssistantDiscovery) throws -> Set<String?> {
            try Set(
                (discovery.gatewayConfigs() + discovery.configs(for: device)).filter { !$0.payload.isEmpty }.map {
                    config in
                    let payload = try #require(
                        try JSONSerialization.jsonObject(with: Data(config.payload.utf8)) as? [String: Any])
                    return (payload["device"] as? [String: Any])?["configuration_url"] as? String
                })
        }
        #expect(try links(discovery) == [nil])
        let linked = HomeAssistantDiscovery(
            topics: TopicMap(gateway: "hall"), configurationURL: "http://gateway.local:8080/")
        #expect(try links(linked) == ["http://gateway.local:8080/"])
    }

    /// In a fleet each device names the gateway that owns it.
    @Test func inAFleetADeviceShowsItsOwner() {
        let device = HomeAssistantDiscovery.Device(
            family: .belt, id: "a", address: "00:00:00:00:00:0A", identity: "a", name: nil,
            model: BeltDriver().homeAssistant)
        let fleet = HomeAssistantDiscovery(topics: TopicMap(gateway: "hall"), fleet: true, mode: .entity).configs(
            for: device)
        #expect(
            fleet.contains {
                $0.topic == "homeassistant/sensor/fleet_belt_a/owner/config"
                    && $0.payload.contains(#""state_topic":"belt/a/owner""#)
            })
        #expect(
            !discovery.configs(for: device).contains { $0.topic.contains("/owner/") },
            "outside a fleet the gateway is the device's")
    }
}
