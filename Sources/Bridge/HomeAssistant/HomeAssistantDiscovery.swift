/// Home Assistant MQTT discovery: the retained configs under `homeassistant/<component>/…/config` that
/// make each device's entities appear in Home Assistant, with a device block, unique ids that include
/// the gateway, and availability that needs both the gateway and the device. In a fleet a device is
/// one Home Assistant device whichever gateway owns it: its ids leave the gateway out, and its
/// availability is its own `connection` (the owner announces it, naming itself as `via_device`).
struct HomeAssistantDiscovery: Sendable {
    static let prefix = "homeassistant"
    /// Home Assistant says `online` here when it (re)starts; the configs are sent again then.
    static let statusTopic = "homeassistant/status"

    let topics: TopicMap
    var fleet = false

    /// One device as discovery sees it.
    struct Device: Sendable {
        var family: DeviceFamily
        var id: String
        var address: String
        var name: String?
    }

    /// Every config for `device`, retained.
    func configs(for device: Device) -> [Publication] {
        entities(for: device).map { entity in
            .state(configTopic(entity.component, device, entity.object), JSONValue.object(payload(entity, device)).text)
        }
    }

    /// The gateway itself: a connectivity sensor on its status topic, and the device the others hang from.
    func gatewayConfig() -> Publication {
        .state("\(Self.prefix)/binary_sensor/gatt2mqtt_\(topics.identity)/status/config", JSONValue.object([
            "name": .string("Status"), "state_topic": .string(topics.status), "payload_on": .string("online"),
            "payload_off": .string("offline"), "device_class": .string("connectivity"),
            "unique_id": .string("gatt2mqtt_\(topics.identity)_status"),
            "device": .object([
                "identifiers": .array([.string("gatt2mqtt_\(topics.identity)")]), "name": .string("gatt2mqtt \(topics.gateway)"),
                "manufacturer": .string("gatt2mqtt"), "model": .string("BLE to MQTT gateway"),
            ]),
        ]).text)
    }

    /// Empty retained payloads that remove every config of `device` from Home Assistant.
    func removals(for device: Device) -> [Publication] {
        entities(for: device).map { .state(configTopic($0.component, device, $0.object), "") }
    }

    private func node(_ device: Device) -> String {
        "\(fleet ? topics.fleetIdentity : topics.identity)_\(device.family.rawValue)_\(device.id)"
    }

    func configTopic(_ component: String, _ device: Device, _ object: String) -> String {
        "\(Self.prefix)/\(component)/\(node(device))/\(object)/config"
    }

    // MARK: Entities

    struct Entity: Sendable {
        var component: String
        var object: String
        var fields: [String: JSONValue]
        /// Device triggers have no name, availability or unique id.
        var isTrigger: Bool { component == "device_automation" }
    }

    private func topic(_ device: Device, _ leaf: String) -> String { topics.device(device.family, device.id, leaf) }

    func entities(for device: Device) -> [Entity] {
        func sensor(_ object: String, _ name: String, _ leaf: String, _ extra: [String: JSONValue] = [:]) -> Entity {
            Entity(component: "sensor", object: object, fields: ["name": .string(name), "state_topic": .string(topic(device, leaf))].merging(extra) { $1 })
        }
        let battery: [String: JSONValue] = ["device_class": .string("battery"), "unit_of_measurement": .string("%"), "state_class": .string("measurement")]
        switch device.family {
        case .belt:
            let modes = ["standby", "wait", "compass", "app", "pause", "crossing"]
            var entities = [
                sensor("heading", "Heading", "heading", ["unit_of_measurement": .string("°"), "state_class": .string("measurement"), "icon": .string("mdi:compass")]),
                sensor("battery", "Battery", "battery", battery.merging(["value_template": .string("{{ value_json.level }}")]) { $1 }),
                Entity(component: "select", object: "mode", fields: [
                    "name": .string("Mode"), "state_topic": .string(topic(device, "mode")),
                    "command_topic": .string(topic(device, "cmd/mode")), "options": .array(modes.map(JSONValue.string)),
                ]),
                sensor("navigation", "Navigation", "navigation", ["icon": .string("mdi:navigation")]),
            ]
            for button in ["power", "pause", "compass", "home"] {
                for press in ["short", "long"] {
                    entities.append(trigger(device, "\(button)_\(press)", topic: topic(device, "button"), type: "button_\(press)_press",
                                            subtype: button, template: "{{ value_json.button }}_{{ value_json.press }}", payload: "\(button)_\(press)"))
                }
            }
            return entities
        case .a5:
            return [
                sensor("force", "Force", "force", ["unit_of_measurement": .string("N"), "state_class": .string("measurement"), "icon": .string("mdi:arm-flex")]),
                Entity(component: "binary_sensor", object: "squeeze", fields: [
                    "name": .string("Squeeze"), "state_topic": .string(topic(device, "squeeze")),
                    "payload_on": .string("squeezed"), "payload_off": .string("released"),
                ]),
                sensor("battery", "Battery", "battery", battery.merging(["value_template": .string("{{ value_json.level }}")]) { $1 }),
                sensor("state", "Streaming", "state"),
                trigger(device, "double_squeeze", topic: topic(device, "event"), type: "button_double_press", subtype: "squeeze",
                        template: nil, payload: "doubleSqueeze"),
            ]
        case .cpr:
            return [
                sensor("peak", "Compression depth", "peak", ["unit_of_measurement": .string("cm"), "state_class": .string("measurement")]),
                sensor("angle", "Wrist angle", "angle", ["unit_of_measurement": .string("°"), "state_class": .string("measurement")]),
                sensor("mode", "Mode", "mode"),
                sensor("battery", "Battery", "battery", battery.merging(["value_template": .string("{{ value_json.percent | round(0) }}")]) { $1 }),
                sensor("rate", "Compression rate", "stats", [
                    "unit_of_measurement": .string("/min"), "value_template": .string("{{ value_json.rate_per_minute | default(0) }}"),
                ]),
            ]
        case .grip:
            return [
                Entity(component: "event", object: "button", fields: [
                    "name": .string("Button"), "state_topic": .string(topic(device, "event")),
                    "event_types": .array(Self.gripEvents.map(JSONValue.string)),
                    "value_template": .string(#"{"event_type":"{{ value }}"}"#),
                ]),
                sensor("battery", "Battery", "battery", battery.merging(["value_template": .string("{{ value_json.level }}")]) { $1 }),
            ]
        }
    }

    static let gripEvents = [
        "shutterButtonDown", "shutterButtonReleased", "shutterButtonHalfDown", "dialButtonCW", "dialButtonCCW", "dialButtonPress",
        "dialButtonLongPress", "fnButtonPress", "fnButtonLongPress", "zoomLeverHoldLeft", "zoomLeverHoldRight", "zoomLeverLeft",
        "zoomLeverRight", "zoomLeverNeutral",
    ]

    private func trigger(
        _ device: Device, _ object: String, topic: String, type: String, subtype: String, template: String?, payload: String
    ) -> Entity {
        var fields: [String: JSONValue] = [
            "automation_type": .string("trigger"), "topic": .string(topic), "type": .string(type), "subtype": .string(subtype),
            "payload": .string(payload),
        ]
        if let template { fields["value_template"] = .string(template) }
        return Entity(component: "device_automation", object: object, fields: fields)
    }

    // MARK: Payloads

    private func payload(_ entity: Entity, _ device: Device) -> [String: JSONValue] {
        var payload = entity.fields
        payload["device"] = deviceBlock(device)
        guard !entity.isTrigger else { return payload }
        payload["unique_id"] = .string("gatt2mqtt_\(node(device))_\(entity.object)")
        payload["object_id"] = .string("\(device.family.rawValue)_\(device.id)_\(entity.object)")
        // Available only when the device is connected, and (outside a fleet, where one gateway serves
        // it for good) its gateway is online.
        let connected = JSONValue.object([
            "topic": .string(topic(device, "connection")),
            "value_template": .string("{{ 'online' if value == 'connected' else 'offline' }}"),
        ])
        payload["availability_mode"] = .string("all")
        payload["availability"] = .array(fleet ? [connected] : [.object(["topic": .string(topics.status)]), connected])
        return payload
    }

    private func deviceBlock(_ device: Device) -> JSONValue {
        let (manufacturer, model): (String, String) =
            switch device.family {
            case .belt: ("feelSpace", "naviBelt")
            case .a5: ("ActivBody", "Activ5")
            case .cpr: ("Credo", "CPR-Band")
            case .grip: ("Fjorden", "Camera grip")
            }
        return .object([
            "identifiers": .array([.string("gatt2mqtt_\(node(device))")]),
            "connections": .array([.array([.string("mac"), .string(device.address.lowercased())])]),
            "name": .string(device.name ?? "\(model) \(device.id)"),
            "manufacturer": .string(manufacturer), "model": .string(model),
            "via_device": .string("gatt2mqtt_\(topics.identity)"),
        ])
    }
}
