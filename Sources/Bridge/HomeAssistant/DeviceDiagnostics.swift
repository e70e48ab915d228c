/// The entities every device has besides its family's, from the topics every device has (topics.md, "Every
/// device"), all diagnostic: the state of its link rather than what it measures.
enum DeviceDiagnostics {
    static let entities: [HomeAssistantModel.Entity] = [signalStrength, lastSeen, connection, lastError]

    /// Signal strength, dBm. Disabled by default, as Zigbee2MQTT's link quality: it is for finding a bad placement,
    /// and each reading differs from the last, so enabled it is a recorder row (and a statistic) per reading and
    /// device, on every dashboard that shows the device. The CPR band reports it every `cpr.signal_s`, every other
    /// device every minute (`LinkVitals.swift`).
    static let signalStrength = HomeAssistantModel.Entity.sensor(
        "rssi", "Signal strength", leaf: "rssi",
        [
            "device_class": .string("signal_strength"), "unit_of_measurement": .string("dBm"),
            "state_class": .string("measurement"),
            "entity_category": .diagnostic, "enabled_by_default": .bool(false),
        ])

    /// When the gateway last knew the device there, from the retained `last_seen`. Disabled by default, as
    /// Zigbee2MQTT's is: one row a minute per connected device for something the connection already says. Available
    /// while the device is away, which is when it matters.
    static let lastSeen = HomeAssistantModel.Entity.sensor(
        "last_seen", "Last seen", leaf: "last_seen",
        [
            "device_class": .string("timestamp"), "value_template": .string("{{ value if value else None }}"),
            "entity_category": .diagnostic, "enabled_by_default": .bool(false),
            "icon": .string("mdi:clock-check-outline"),
        ]
    ).whileGatewayOnline()

    /// Whether the device is connected, from its retained `connection`. Every other entity of the device is
    /// unavailable while it is away; this one stays available (while the gateway is online) and says so.
    static let connection = HomeAssistantModel.Entity(
        component: "binary_sensor", object: "connection", topics: ["state_topic": "connection"],
        fields: [
            "name": .string("Connection"), "device_class": .string("connectivity"), "entity_category": .diagnostic,
            "value_template": .string("{{ 'ON' if value == 'connected' else 'OFF' }}"),
        ]
    ).whileGatewayOnline()

    /// The last error the device met outside a command (`error`, an event, not retained): its code, with the message
    /// as an attribute. Available while the device is away, when most errors (`connect_failed`, `link_lost`) come.
    static let lastError = HomeAssistantModel.Entity.sensor(
        "error", "Last error", leaf: "error",
        [
            "value_template": .string(HomeAssistantModel.Entity.fromJSON("value_json.code")),
            "json_attributes_template": .string("{{ {'message': value_json.message} | tojson }}"),
            "entity_category": .diagnostic, "icon": .string("mdi:alert-circle-outline"),
        ]
    ).withTopic("json_attributes_topic", leaf: "error").whileGatewayOnline()
}
