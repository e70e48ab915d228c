/// The gateway in Home Assistant, a device of its own that every served device hangs from (`via_device`):
/// whether it is online, its version, its adapters, how many devices it has connected, its message rates, a
/// button that scans and a switch that lets devices join. Its entities name the gateway's topics by leaf
/// (`status` → `gatt2mqtt/<gateway>/status`), as a family's name a device's.
enum GatewayHomeAssistant {
    static let model = HomeAssistantModel(
        manufacturer: "gatt2mqtt", model: "BLE to MQTT gateway",
        entities: [
            // The status shows the gateway offline, so it is always available; every other entity is unavailable then.
            HomeAssistantModel.Entity(
                component: "binary_sensor", object: "status", topics: ["state_topic": "status"],
                fields: [
                    "name": .string("Status"), "payload_on": .string("online"), "payload_off": .string("offline"),
                    "device_class": .string("connectivity"), "entity_category": .diagnostic,
                ]
            ).alwaysAvailable(),
            // The retained `version`, published with `online`: known at once, not a health report later.
            .sensor(
                "version", "Version", leaf: "version", ["entity_category": .diagnostic, "icon": .string("mdi:tag")]),
            .sensor(
                "adapters", "Adapters", leaf: "adapter",
                [
                    "device_class": .string("enum"),
                    "options": .array(AdapterStatus.allCases.map { .string($0.rawValue) }),
                    "entity_category": .diagnostic, "icon": .string("mdi:bluetooth"),
                ]),
            .sensor(
                "connected_devices", "Connected devices", leaf: "devices",
                [
                    "value_template": .string(
                        HomeAssistantModel.Entity.fromJSON(
                            "value_json | selectattr('state', 'eq', 'connected') | list | count")),
                    "state_class": .string("measurement"), "icon": .string("mdi:bluetooth-connect"),
                ]),
            .sensor(
                "messages_in", "Messages in", leaf: "health",
                [
                    "value_template": .string(HomeAssistantModel.Entity.fromJSON("value_json.messages_in_per_s")),
                    "unit_of_measurement": .string("msg/s"), "state_class": .string("measurement"),
                    "entity_category": .diagnostic,
                ]),
            .sensor(
                "messages_out", "Messages out", leaf: "health",
                [
                    "value_template": .string(HomeAssistantModel.Entity.fromJSON("value_json.messages_out_per_s")),
                    "unit_of_measurement": .string("msg/s"), "state_class": .string("measurement"),
                    "entity_category": .diagnostic,
                ]),
            .init(
                component: "button", object: "scan", topics: ["command_topic": "request/scan"],
                fields: [
                    "name": .string("Scan"), "payload_press": .string(#"{"duration_s":10}"#),
                    "icon": .string("mdi:bluetooth-audio"),
                ]),
            // Devices join (are adopted) only while this is on; it turns itself off after 254 s, as Zigbee2MQTT's does.
            .init(
                component: "switch", object: "permit_join",
                topics: ["command_topic": "request/permit_join", "state_topic": "permit_join"],
                fields: [
                    "name": .string("Permit join"), "payload_on": .string(#"{"duration_s":\#(JoinWindow.usual)}"#),
                    "payload_off": .string(#"{"duration_s":0}"#),
                    "state_on": .string("ON"), "state_off": .string("OFF"),
                    "value_template": .string("{{ 'ON' if value_json.open else 'OFF' }}"),
                    "entity_category": .configuration, "icon": .string("mdi:account-plus"),
                ]),
        ])

    /// In a fleet, the gateway that owns a device, shown with the device.
    static let owner = HomeAssistantModel.Entity.sensor(
        "owner", "Gateway", leaf: "owner",
        [
            "entity_category": .diagnostic, "icon": .string("mdi:router-wireless"),
        ])
}
