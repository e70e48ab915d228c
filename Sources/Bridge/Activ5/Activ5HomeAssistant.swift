extension Activ5Driver {
    /// The Activ5 in Home Assistant: force, squeeze, battery, streaming state and a double-squeeze trigger.
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(manufacturer: "ActivBody", model: "Activ5", entities: [
            .sensor("force", "Force", leaf: "force", [
                "unit_of_measurement": .string("N"), "state_class": .string("measurement"), "icon": .string("mdi:arm-flex"),
            ]),
            .init(component: "binary_sensor", object: "squeeze", topics: ["state_topic": "squeeze"],
                  fields: ["name": .string("Squeeze"), "payload_on": .string("squeezed"), "payload_off": .string("released")]),
            .battery(template: "{{ value_json.level }}"),
            .sensor("state", "Streaming", leaf: "state"),
            .trigger("double_squeeze", leaf: "event", type: "button_double_press", subtype: "squeeze", template: nil, payload: "doubleSqueeze"),
        ])
    }
}
