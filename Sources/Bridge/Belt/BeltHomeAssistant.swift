extension BeltDriver {
    /// The belt in Home Assistant: heading, battery, mode (a select that sends `cmd/mode`), navigation, and
    /// a device trigger for each button press.
    var homeAssistant: HomeAssistantModel {
        let modes = ["standby", "wait", "compass", "app", "pause", "crossing"]
        var entities: [HomeAssistantModel.Entity] = [
            .sensor("heading", "Heading", leaf: "heading", [
                "unit_of_measurement": .string("°"), "state_class": .string("measurement"), "icon": .string("mdi:compass"),
            ]),
            .battery(template: "{{ value_json.level }}"),
            .init(component: "select", object: "mode", topics: ["state_topic": "mode", "command_topic": "cmd/mode"],
                  fields: ["name": .string("Mode"), "options": .array(modes.map(JSONValue.string))]),
            .sensor("navigation", "Navigation", leaf: "navigation", ["icon": .string("mdi:navigation")]),
        ]
        for button in ["power", "pause", "compass", "home"] {
            for press in ["short", "long"] {
                entities.append(.trigger("\(button)_\(press)", leaf: "button", type: "button_\(press)_press", subtype: button,
                                         template: "{{ value_json.button }}_{{ value_json.press }}", payload: "\(button)_\(press)"))
            }
        }
        return HomeAssistantModel(manufacturer: "feelSpace", model: "naviBelt", entities: entities)
    }
}
