import Peripherals

extension GripDriver {
    /// The grip in Home Assistant: an event entity with the 14 events of the SDK, and its battery.
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(manufacturer: "Fjorden", model: "Camera grip", entities: [
            .init(component: "event", object: "button", topics: ["state_topic": "event"], fields: [
                "name": .string("Button"), "event_types": .array(GripEvent.allCases.map { .string($0.rawValue) }),
                "value_template": .string(#"{"event_type":"{{ value }}"}"#),
            ]),
            .battery(template: "{{ value_json.level }}"),
        ])
    }
}
