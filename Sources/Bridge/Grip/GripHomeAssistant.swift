import Peripherals

extension GripDriver {
    /// The grip in Home Assistant: an event entity with the 14 events of the SDK, its battery and its bond. It
    /// takes no commands.
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(manufacturer: "Fjorden", model: "Camera grip", entities: [
            .init(component: "event", object: "button", topics: ["state_topic": "event"], fields: [
                "name": .string("Button"), "event_types": .array(GripEvent.allCases.map { .string($0.rawValue) }),
                "value_template": .string(#"{"event_type":"{{ value }}"}"#),
            ]),
            .battery(),
            .init(component: "binary_sensor", object: "bonded", topics: ["state_topic": "bonded"], fields: [
                "name": .string("Bonded"), "payload_on": .string("true"), "payload_off": .string("false"),
                "entity_category": .diagnostic, "icon": .string("mdi:link-variant"),
            ]),
        ])
    }
}
