extension CPRBandDriver {
    /// The CPR-Band in Home Assistant: depth of each compression, wrist angle, mode, battery and rate.
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(manufacturer: "Credo", model: "CPR-Band", entities: [
            .sensor("peak", "Compression depth", leaf: "peak", ["unit_of_measurement": .string("cm"), "state_class": .string("measurement")]),
            .sensor("angle", "Wrist angle", leaf: "angle", ["unit_of_measurement": .string("°"), "state_class": .string("measurement")]),
            .sensor("mode", "Mode", leaf: "mode"),
            .battery(template: "{{ value_json.percent | round(0) }}"),
            .sensor("rate", "Compression rate", leaf: "stats", [
                "unit_of_measurement": .string("/min"), "value_template": .string("{{ value_json.rate_per_minute | default(0) }}"),
            ]),
        ])
    }
}
