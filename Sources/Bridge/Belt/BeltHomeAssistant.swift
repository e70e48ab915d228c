extension BeltDriver {
    /// The belt in Home Assistant: heading and battery (with charging and time to empty); its mode, default intensity, heading offset and compass
    /// accuracy signal as controls; buttons that stop the vibration, pulse toward the front and play the battery
    /// level; navigation (its state, a switch that pauses and resumes it, a button that stops it); and a device
    /// trigger for each button press.
    var homeAssistant: HomeAssistantModel {
        // Every mode but calibration, which only the belt itself starts (`cmd/mode` refuses it).
        let modes = ["standby", "wait", "compass", "app", "pause", "crossing"]
        var entities: [HomeAssistantModel.Entity] = [
            // Two values a second by default: a fast stream (FastStreams.swift).
            .sensor(
                "heading", "Heading", leaf: "heading",
                [
                    "unit_of_measurement": .string("°"), "state_class": .string("measurement"),
                    "icon": .string("mdi:compass"),
                ]
            ).fastStream(),
            .battery(),
            // From the same `battery` JSON: `power` says charging; `time_to_empty_s` is there only on battery.
            .init(
                component: "binary_sensor", object: "charging", topics: ["state_topic": "battery"],
                fields: [
                    "name": .string("Charging"), "device_class": .string("battery_charging"),
                    "entity_category": .diagnostic,
                    "value_template": .string(
                        HomeAssistantModel.Entity.fromJSON(
                            "'ON' if value_json.power == 'charging' else ('OFF' if value_json.power in ['battery', 'external'] else None)"
                        )),
                ]),
            .sensor(
                "time_to_empty", "Time to empty", leaf: "battery",
                [
                    "device_class": .string("duration"), "unit_of_measurement": .string("min"),
                    "entity_category": .diagnostic,
                    "value_template": .string(
                        HomeAssistantModel.Entity.fromJSON(
                            "(value_json.time_to_empty_s / 60) | round(0) if value_json.time_to_empty_s is defined else None"
                        )),
                ]),
            .select("mode", "Mode", leaf: "mode", options: modes, command: "mode"),
            .number(
                "intensity", "Vibration intensity", leaf: "intensity", command: "intensity", range: 5...100,
                [
                    "unit_of_measurement": .string("%"), "entity_category": .configuration,
                    "icon": .string("mdi:vibrate"),
                ]),
            .number(
                "heading_offset", "Heading offset", leaf: "heading_offset", command: "heading_offset", range: 0...359,
                [
                    "unit_of_measurement": .string("°"), "entity_category": .configuration,
                ]),
            .toggle(
                "compass_accuracy_signal", "Compass accuracy signal", leaf: "compass_accuracy_signal",
                isOn: "value_json.compass_mode and value_json.app_mode", command: "compass_accuracy_signal",
                on: #"{"enabled":true}"#, off: #"{"enabled":false}"#, ["entity_category": .configuration]),
            .button("stop_vibration", "Stop vibration", command: "stop", ["icon": .string("mdi:vibrate-off")]),
            // A one-shot signal: it plays in any mode (topics.md, App mode), so the button works without app mode.
            .button(
                "pulse_front", "Vibrate toward the front", command: "vibrate",
                payload: #"{"direction":0,"orientation":"angle","pattern":"direction_notification"}"#,
                ["icon": .string("mdi:vibrate")]),
            .button(
                "battery_signal", "Vibrate the battery level", command: "signal", payload: "battery_level",
                ["icon": .string("mdi:battery-heart-variant")]),
            .sensor("navigation", "Navigation", leaf: "navigation", ["icon": .string("mdi:navigation")]),
            .toggle(
                "navigating", "Navigating", leaf: "navigation", isOn: "value == 'navigating'", command: "navigation",
                on: #"{"action":"resume"}"#, off: #"{"action":"pause"}"#, ["icon": .string("mdi:navigation-variant")]),
            .button(
                "stop_navigation", "Stop navigation", command: "navigation", payload: #"{"action":"stop"}"#,
                ["icon": .string("mdi:stop")]),
        ]
        for button in ["power", "pause", "compass", "home"] {
            for press in ["short", "long"] {
                entities.append(
                    .trigger(
                        "\(button)_\(press)", leaf: "button", type: "button_\(press)_press", subtype: button,
                        template: "{{ value_json.button }}_{{ value_json.press }}", payload: "\(button)_\(press)"))
            }
        }
        return HomeAssistantModel(manufacturer: "feelSpace", model: "naviBelt", entities: entities)
    }
}
