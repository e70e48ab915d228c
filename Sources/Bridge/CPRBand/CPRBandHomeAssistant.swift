extension CPRBandDriver {
    /// The CPR-Band in Home Assistant: depth of each compression, wrist angle, rate and battery; its mode as a
    /// select; the Bus library's commands as buttons; distance (its signal strength is every device's).
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(manufacturer: "Credo", model: "CPR-Band", entities: [
            // Depth and rate come with every compression (about two a second while practicing), the angle ten times a
            // second, the distance every `cpr.signal_s` (5 s): fast streams (FastStreams.swift). Its signal strength
            // is every device's (DeviceDiagnostics).
            .sensor("peak", "Compression depth", leaf: "peak", ["unit_of_measurement": .string("cm"), "state_class": .string("measurement")])
                .fastStream(),
            .sensor("angle", "Wrist angle", leaf: "angle", ["unit_of_measurement": .string("°"), "state_class": .string("measurement")])
                .fastStream(),
            .sensor("rate", "Compression rate", leaf: "stats", [
                "unit_of_measurement": .string("/min"), "state_class": .string("measurement"),
                "value_template": .string("{{ value_json.rate_per_minute | default(0) }}"),
            ]).fastStream(),
            .battery("value_json.percent | round(0)"),
            .select("mode", "Mode", leaf: "mode", options: CPRBandCommandParser.modes, command: "mode"),
            .button("ready", "Ready", command: "ready"),
            .button("practice", "Practice", command: "practice"),
            .button("evaluate", "Evaluate", command: "evaluate"),
            .button("call", "Call", command: "call", ["icon": .string("mdi:bell-ring")]),
            // Both switch the band off; reset also clears its name and range: settings, not everyday controls.
            .button("reset", "Reset", command: "reset", ["entity_category": .configuration, "icon": .string("mdi:restore")]),
            .button("power_off", "Power off", command: "power_off", ["entity_category": .configuration, "icon": .string("mdi:power")]),
            .sensor("distance", "Distance", leaf: "distance", [
                "device_class": .string("distance"), "unit_of_measurement": .string("m"), "state_class": .string("measurement"),
                "entity_category": .diagnostic,
            ]).fastStream(),
        ], retired: [.init(component: "sensor", object: "mode")])
    }
}
