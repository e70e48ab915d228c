extension HeartRateDriver {
    /// A heart rate sensor in Home Assistant: its rate and energy expended (each changes about once a second during
    /// exercise, so fast streams: added disabled), skin contact, a button that resets the energy, battery, and where
    /// it is worn.
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(
            manufacturer: "Bluetooth SIG Heart Rate service", model: "Heart rate sensor",
            entities: [
                .sensor(
                    "heart_rate", "Heart rate", leaf: "bpm",
                    [
                        "unit_of_measurement": .string("bpm"), "state_class": .string("measurement"),
                        "icon": .string("mdi:heart-pulse"),
                    ]
                ).fastStream(),
                .init(
                    component: "binary_sensor", object: "contact", topics: ["state_topic": "contact"],
                    fields: [
                        "name": .string("Skin contact"), "icon": .string("mdi:account-heart"),
                        // A strap that cannot tell is unknown, not "no contact".
                        "value_template": .string(
                            "{{ {'detected': 'ON', 'not_detected': 'OFF'}.get(value) }}"),
                    ]),
                .sensor(
                    "energy", "Energy expended", leaf: "energy",
                    [
                        "device_class": .string("energy"), "unit_of_measurement": .string("kJ"),
                        "state_class": .string("total_increasing"),
                    ]
                ).fastStream(),
                .button("reset_energy", "Reset energy", command: "reset_energy", ["icon": .string("mdi:restart")]),
                .battery(),
                .sensor(
                    "location", "Sensor location", leaf: "location",
                    ["entity_category": .diagnostic, "icon": .string("mdi:human")]
                ).whileGatewayOnline(),
            ])
    }
}
