extension CPRBandDriver {
    /// The CPR-Band in Home Assistant: depth of each compression, wrist angle, rate and battery; the last session's
    /// summary; its mode as a select; the Bus library's commands as buttons; distance (its signal strength is every
    /// device's).
    var homeAssistant: HomeAssistantModel {
        // A session without compressions has no share in range.
        let inRange = "(value_json.in_range_share * 100) | round(0) if 'in_range_share' in value_json else None"
        return HomeAssistantModel(
            manufacturer: "Credo", model: "CPR-Band",
            entities: [
                // Depth and rate come with every compression (about two a second while practicing), the angle ten times a
                // second, the distance every `cpr.signal_s` (5 s): fast streams (FastStreams.swift). Its signal strength
                // is every device's (DeviceDiagnostics).
                .sensor(
                    "peak", "Compression depth", leaf: "peak",
                    ["unit_of_measurement": .string("cm"), "state_class": .string("measurement")]
                )
                .fastStream(),
                .sensor(
                    "angle", "Wrist angle", leaf: "angle",
                    ["unit_of_measurement": .string("°"), "state_class": .string("measurement")]
                )
                .fastStream(),
                .sensor(
                    "rate", "Compression rate", leaf: "stats",
                    [
                        "unit_of_measurement": .string("/min"), "state_class": .string("measurement"),
                        "value_template": .string("{{ value_json.rate_per_minute | default(0) }}"),
                    ]
                ).fastStream(),
                .battery("value_json.percent | round(0)"),
                // The last practice's or evaluation's summary (`session`, retained, kept while the band is away): a row
                // per session. Its share in range carries the whole summary as attributes (kind, too shallow, too deep,
                // duration, range).
                session(
                    "session_in_range", "Last session in range", inRange,
                    [
                        "unit_of_measurement": .string("%"), "state_class": .string("measurement"),
                        "icon": .string("mdi:bullseye-arrow"),
                    ]
                ).withTopic("json_attributes_topic", leaf: "session"),
                session(
                    "session_compressions", "Last session compressions", "value_json.count",
                    ["icon": .string("mdi:counter")]),
                session(
                    "session_depth", "Last session mean depth", "value_json.get('mean_depth_cm')",
                    [
                        "device_class": .string("distance"), "unit_of_measurement": .string("cm"),
                        "state_class": .string("measurement"),
                    ]),
                session(
                    "session_rate", "Last session rate", "value_json.get('rate_per_minute')",
                    [
                        "unit_of_measurement": .string("/min"), "state_class": .string("measurement"),
                        "icon": .string("mdi:metronome"),
                    ]),
                .select("mode", "Mode", leaf: "mode", options: CPRBandCommandParser.modes, command: "mode"),
                .button("ready", "Ready", command: "ready"),
                .button("practice", "Practice", command: "practice"),
                .button("evaluate", "Evaluate", command: "evaluate"),
                .button("call", "Call", command: "call", ["icon": .string("mdi:bell-ring")]),
                // Both switch the band off; reset also clears its name and range: settings, not everyday controls.
                .button(
                    "reset", "Reset", command: "reset",
                    ["entity_category": .configuration, "icon": .string("mdi:restore")]),
                .button(
                    "power_off", "Power off", command: "power_off",
                    ["entity_category": .configuration, "icon": .string("mdi:power")]),
                .sensor(
                    "distance", "Distance", leaf: "distance",
                    [
                        "device_class": .string("distance"), "unit_of_measurement": .string("m"),
                        "state_class": .string("measurement"),
                        "entity_category": .diagnostic,
                    ]
                ).fastStream(),
            ], retired: [.init(component: "sensor", object: "mode")])
    }

    /// A sensor of the last session's summary: `expression` on its JSON; available while the band is away.
    private func session(_ object: String, _ name: String, _ expression: String, _ extra: [String: JSONValue])
        -> HomeAssistantModel.Entity
    {
        .sensor(
            object, name, leaf: "session",
            ["value_template": .string(HomeAssistantModel.Entity.fromJSON(expression))].merging(extra) { $1 }
        )
        .whileGatewayOnline()
    }
}
