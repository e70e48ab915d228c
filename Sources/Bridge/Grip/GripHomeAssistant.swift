import Peripherals

extension GripDriver {
    /// The grip in Home Assistant: an event entity with the 14 events of the SDK, its battery (and whether it is low) and its bond. It
    /// takes no commands.
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(
            manufacturer: "Fjorden", model: "Camera grip",
            entities: [
                .init(
                    component: "event", object: "button", topics: ["state_topic": "event"],
                    fields: [
                        "name": .string("Button"),
                        "event_types": .array(GripEvent.allCases.map { .string($0.rawValue) }),
                        "value_template": .string(#"{"event_type":"{{ value }}"}"#),
                    ]),
                .battery(),
                // The grip's own judgement (`low`, below 30 %), as Home Assistant's battery binary sensor: on is low.
                .init(
                    component: "binary_sensor", object: "battery_low", topics: ["state_topic": "battery"],
                    fields: [
                        "name": .string("Battery low"), "device_class": .string("battery"),
                        "entity_category": .diagnostic,
                        "value_template": .string(
                            HomeAssistantModel.Entity.fromJSON("'ON' if value_json.low else 'OFF'")),
                    ]),
                .init(
                    component: "binary_sensor", object: "bonded", topics: ["state_topic": "bonded"],
                    fields: [
                        "name": .string("Bonded"), "payload_on": .string("true"), "payload_off": .string("false"),
                        "entity_category": .diagnostic, "icon": .string("mdi:link-variant"),
                    ]),
            ])
    }
}
