extension Activ5Driver {
    /// The Activ5 in Home Assistant: force, squeeze and battery; switches for the force and IMU streams; tare and
    /// stop buttons; and a double-squeeze trigger.
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(
            manufacturer: "ActivBody", model: "Activ5",
            entities: [
                // About ten values a second while streaming: a fast stream (FastStreams.swift). Squeezes and double
                // squeezes, which automations want, come on their own slow topics.
                .sensor(
                    "force", "Force", leaf: "force",
                    [
                        "unit_of_measurement": .string("N"), "state_class": .string("measurement"),
                        "icon": .string("mdi:arm-flex"),
                    ]
                ).fastStream(),
                .init(
                    component: "binary_sensor", object: "squeeze", topics: ["state_topic": "squeeze"],
                    fields: [
                        "name": .string("Squeeze"), "payload_on": .string("squeezed"),
                        "payload_off": .string("released"),
                    ]),
                .battery(),
                .toggle(
                    "stream", "Force stream", leaf: "state", isOn: "value == 'isometric'", command: "stream", on: "on",
                    off: "off",
                    ["icon": .string("mdi:chart-bell-curve-cumulative")]),
                // The IMU has no state of its own on the device's topics: what users asked for (`desired`) is its state.
                .toggle(
                    "imu", "IMU stream", leaf: "desired", isOn: "value_json.imu", command: "imu", on: "on", off: "off",
                    ["icon": .string("mdi:axis-arrow")]),
                .button("tare", "Tare", command: "tare", ["icon": .string("mdi:scale-balance")]),
                .button("stop", "Stop", command: "stop", ["icon": .string("mdi:stop")]),
                .trigger(
                    "double_squeeze", leaf: "event", type: "button_double_press", subtype: "squeeze", template: nil,
                    payload: "doubleSqueeze"),
            ], retired: [.init(component: "sensor", object: "state")])
    }
}
