/// Home Assistant MQTT discovery: the retained configs under `homeassistant/<component>/…/config` that
/// make each device's entities appear in Home Assistant, with a device block, unique ids that include
/// the gateway, and availability that needs both the gateway and the device. In a fleet a device is
/// one Home Assistant device whichever gateway owns it: its ids leave the gateway out, and its
/// availability is its own `connection` (the owner announces it, naming itself as `via_device`).
struct HomeAssistantDiscovery: Sendable {
    let topics: TopicMap
    var fleet = false
    /// Home Assistant's discovery prefix (`homeassistant.discovery_prefix`).
    var prefix = HomeAssistantOptions().discoveryPrefix

    /// Home Assistant says `online` here when it (re)starts; the configs are sent again then.
    var statusTopic: String { "\(prefix)/status" }

    /// One device as discovery sees it.
    struct Device: Sendable {
        var family: DeviceFamily
        var id: String
        var address: String
        var name: String?
        /// What its family declares for Home Assistant.
        var model: HomeAssistantModel
    }

    /// Every config for `device`, retained.
    func configs(for device: Device) -> [Publication] {
        entities(for: device).map { entity in
            .state(configTopic(entity.component, device, entity.object), JSONValue.object(payload(entity, device)).text)
        }
    }

    /// The gateway itself: a connectivity sensor on its status topic, and the device the others hang from.
    func gatewayConfig() -> Publication {
        .state("\(prefix)/binary_sensor/gatt2mqtt_\(topics.identity)/status/config", JSONValue.object([
            "name": .string("Status"), "state_topic": .string(topics.status), "payload_on": .string("online"),
            "payload_off": .string("offline"), "device_class": .string("connectivity"),
            "unique_id": .string("gatt2mqtt_\(topics.identity)_status"),
            "default_entity_id": .string(Self.entityID("binary_sensor", "gatt2mqtt_\(topics.identity)_status")),
            "object_id": .string("gatt2mqtt_\(topics.identity)_status"),
            "entity_category": .string("diagnostic"), "origin": Self.origin,
            "device": .object([
                "identifiers": .array([.string("gatt2mqtt_\(topics.identity)")]), "name": .string("gatt2mqtt \(topics.gateway)"),
                "manufacturer": .string("gatt2mqtt"), "model": .string("BLE to MQTT gateway"),
                "sw_version": .string(Gatt2MQTTVersion.current),
            ]),
        ]).text)
    }

    /// `<domain>.<object id>` in the only characters an entity id may have (an alias or a gateway name may hold
    /// `-` or capitals): lower case, anything else `_`, as Home Assistant itself makes an `object_id` into one.
    static func entityID(_ domain: String, _ objectID: String) -> String {
        let slug = objectID.lowercased().unicodeScalars.map { scalar -> Character in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "_"
        }
        return domain + "." + String(slug)
    }

    /// Who published a config, which Home Assistant logs when it adds or changes what the config describes.
    static let origin = JSONValue.object(["name": .string("gatt2mqtt"), "sw_version": .string(Gatt2MQTTVersion.current)])

    /// Empty retained payloads that remove every config of `device` from Home Assistant.
    func removals(for device: Device) -> [Publication] {
        entities(for: device).map { .state(configTopic($0.component, device, $0.object), "") }
    }

    private func node(_ device: Device) -> String {
        "\(fleet ? topics.fleetIdentity : topics.identity)_\(device.family.rawValue)_\(device.id)"
    }

    func configTopic(_ component: String, _ device: Device, _ object: String) -> String {
        "\(prefix)/\(component)/\(node(device))/\(object)/config"
    }

    private func topic(_ device: Device, _ leaf: String) -> String { topics.device(device.family, device.id, leaf) }

    private func entities(for device: Device) -> [HomeAssistantModel.Entity] { device.model.entities }

    // MARK: Payloads

    private func payload(_ entity: HomeAssistantModel.Entity, _ device: Device) -> [String: JSONValue] {
        var payload = entity.fields
        for (field, leaf) in entity.topics { payload[field] = .string(topic(device, leaf)) }
        payload["device"] = deviceBlock(device)
        payload["origin"] = Self.origin
        guard !entity.isTrigger else { return payload }
        payload["unique_id"] = .string("gatt2mqtt_\(node(device))_\(entity.object)")
        // The entity id Home Assistant gives it at first: `default_entity_id` since 2025.10, which deprecated
        // `object_id` and drops it in 2026.4; `object_id` too for the releases before 2025.10, which know only
        // that one (Zigbee2MQTT sends both the same way).
        let objectID = "\(device.family.rawValue)_\(device.id)_\(entity.object)"
        payload["default_entity_id"] = .string(Self.entityID(entity.component, objectID))
        payload["object_id"] = .string(objectID)
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
        let (manufacturer, model) = (device.model.manufacturer, device.model.model)
        return .object([
            "identifiers": .array([.string("gatt2mqtt_\(node(device))")]),
            "connections": .array([.array([.string("mac"), .string(device.address.lowercased())])]),
            "name": .string(device.name ?? "\(model) \(device.id)"),
            "manufacturer": .string(manufacturer), "model": .string(model),
            "via_device": .string("gatt2mqtt_\(topics.identity)"),
        ])
    }
}
