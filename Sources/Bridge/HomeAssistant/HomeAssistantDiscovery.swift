/// Home Assistant MQTT discovery: the retained configs that make each device's entities appear in Home Assistant (one
/// per device under `homeassistant/device/<node>/config` with the entities as its components, or with
/// `homeassistant.discovery: entity` one per entity under `homeassistant/<component>/<node>/<object>/config`), with
/// a device block, unique ids from the device's family
/// and identity (its address; `IdentityLedger` for devices known before that), and availability that needs both the
/// gateway and the device. An alias names the device and its entity ids when Home Assistant first adds them, and
/// moves nothing when it changes. In a fleet a device is
/// one Home Assistant device whichever gateway owns it: its ids leave the gateway out, its availability is its
/// own `connection` and the announcing owner's `status` (the owner announces it, naming itself as `via_device`),
/// and it shows its owner. A gateway joins the fleet by default (`fleet.enabled: auto`), so fleet ids are the
/// usual ones; the per-gateway configs of earlier releases (and of `fleet.enabled: false`) are cleared.
struct HomeAssistantDiscovery: Sendable {
    let topics: TopicMap
    var fleet = false
    /// Home Assistant's discovery prefix (`homeassistant.discovery_prefix`).
    var prefix = HomeAssistantOptions().discoveryPrefix
    /// `homeassistant.fast_streams`: the fast streams are added enabled, as any other entity (`FastStreams.swift`).
    var fastStreams = false
    /// `homeassistant.discovery`: a config per device or per entity.
    var mode = HomeAssistantDiscoveryMode.device
    /// The live page (`--http`): Home Assistant links to it from the gateway's device page and every device's.
    var configurationURL: String?

    /// Home Assistant says `online` here when it (re)starts; the configs are sent again then.
    var statusTopic: String { "\(prefix)/status" }

    /// One device as discovery sees it.
    struct Device: Sendable {
        var family: DeviceFamily
        /// Its MQTT `<id>` (the alias when there is one): the first entity ids, never the unique ids.
        var id: String
        var address: String
        /// What its unique ids and device identifier are made of: its address in hex, or the identity Home Assistant
        /// knew it by before (`IdentityLedger`).
        var identity: String
        var name: String?
        /// What its family declares for Home Assistant.
        var model: HomeAssistantModel
        /// What was chosen for it: its name, its entities, its streams (`DeviceOptions`).
        var options = DeviceOptions.standard
        /// Its family's stream leaves: the entities that read them are not announced while its streams are off.
        var streamLeaves: Set<String> = []
        /// What the device told of itself (its `info`): firmware, hardware revision, serial number.
        var firmware: String?
        var hardware: String?
        var serial: String?

        /// Takes the firmware, hardware and serial from the members of a device's `info`, whatever their JSON type
        /// (the belt's firmware is a number, the grip's a string); whether that changed what Home Assistant is told.
        mutating func describe(_ info: [String: JSONValue]) -> Bool {
            func text(_ key: String) -> String? {
                switch info[key] {
                case .string(let value) where !value.isEmpty: value
                case .number(let value): JSONValue.number(value).text
                default: nil
                }
            }
            let described = (text("firmware"), text("hardware"), text("serial"))
            guard described != (firmware, hardware, serial) else { return false }
            (firmware, hardware, serial) = described
            return true
        }
    }

    /// Every config for `device`, retained: its device config; or per entity, one for each entity and an empty one
    /// for each entity its family no longer announces (a device config names no retired entity: they retired
    /// before there were any, and `DiscoveryMigration` clears what is left of them).
    func configs(for device: Device) -> [Publication] {
        let node = node(device)
        let holder = Holder(
            node: node, uniqueID: "gatt2mqtt_\(node)", objectID: "\(device.family.rawValue)_\(device.id)",
            topic: { topics.device(device.family, device.id, $0) }, device: deviceBlock(device),
            availability: availability(device))
        switch mode {
        case .device:
            return [deviceConfig(entities(for: device), of: holder, choices: device.options.entities)]
        case .entity:
            // Retired entities and hidden ones (`devices.entities`, `devices.streaming`) get empty configs.
            let retired = device.model.retired.map { ($0.component, $0.object) }
            let hidden = allEntities(for: device).filter { isHidden($0, of: device) }.map { ($0.component, $0.object) }
            let removed = (retired + hidden).map { Publication.state(configTopic($0.0, node, $0.1), "") }
            return entities(for: device).map { entityConfig($0, of: holder, choices: device.options.entities) }
                + removed
        }
    }

    /// `config` with the entities of `platforms` (object → platform) as Home Assistant documents removing components
    /// of a device config: each a component with its platform alone. Followed by the config without them. A config
    /// per entity is returned as it is: its empty config removes a hidden entity.
    func removing(_ platforms: [String: String], from config: Publication) -> Publication {
        guard mode == .device, !platforms.isEmpty,
            case .object(var payload)? = JSONValue.parse(Array(config.payload.utf8)),
            case .object(var components)? = payload["components"]
        else { return config }
        for (object, platform) in platforms { components[object] = .object(["platform": .string(platform)]) }
        payload["components"] = .object(components)
        return .state(config.topic, JSONValue.object(payload).text)
    }

    /// The entities announced for `device` now, object → platform; none per entity, where a hidden entity's config
    /// is emptied instead.
    func announcedPlatforms(of device: Device) -> [String: String] {
        guard mode == .device else { return [:] }
        return Dictionary(entities(for: device).map { ($0.object, $0.component) }) { first, _ in first }
    }

    /// In a fleet, empty retained payloads for the configs this gateway would have sent for `device` outside one
    /// (`fleet.enabled: false`, or before 0.9.0): Home Assistant removes those entities, and their entity ids are
    /// free for the fleet's configs. None outside a fleet. The per-entity ones of earlier releases, under the
    /// device's MQTT id; a device config, under its identity, only when this gateway makes device configs (one
    /// left by the other mode is the sweep's).
    func perGatewayRemovals(for device: Device) -> [Publication] {
        guard fleet else { return [] }
        let old = perGatewayNode(device)
        let entities = (device.model.entities + DeviceDiagnostics.entities).map {
            Publication.state(configTopic($0.component, old, $0.object), "")
        }
        guard mode == .device else { return entities }
        return entities + [.state(deviceTopic("\(topics.identity)_\(device.family.rawValue)_\(device.identity)"), "")]
    }

    /// The topics of every config `device` has (the sweep keeps these).
    func configTopics(for device: Device) -> Set<String> {
        Set(configs(for: device).filter { !$0.payload.isEmpty }.map(\.topic))
    }

    /// What moves `device`'s configs of the other mode among `retained` (what the broker holds under its node) to
    /// this mode's (`DiscoveryMigration`).
    func migration(for device: Device, from retained: Set<String>) -> DiscoveryMigration {
        migration(of: node(device), entities: entities(for: device), from: retained)
    }

    /// The same for the gateway's own configs.
    func gatewayMigration(from retained: Set<String>) -> DiscoveryMigration {
        migration(of: gatewayNode, entities: gateway.1, from: retained)
    }

    private func migration(
        of node: String, entities: [HomeAssistantModel.Entity], from retained: Set<String>
    ) -> DiscoveryMigration {
        let device = deviceTopic(node)
        switch mode {
        case .device:
            // Every config per entity is the other mode's; those of entities the device config carries are migrated.
            let old = retained.subtracting([device])
            let carried = entities.filter { !$0.isTrigger }.map { configTopic($0.component, node, $0.object) }
            return DiscoveryMigration(migrated: old.intersection(carried).sorted(), cleared: old.sorted())
        case .entity:
            guard retained.contains(device) else { return .none }
            return DiscoveryMigration(migrated: [device], cleared: [device])
        }
    }

    /// The topics of the gateway's own configs.
    func gatewayConfigTopics() -> Set<String> {
        Set(gatewayConfigs().map(\.topic))
    }

    /// The gateway itself: its own entities, and the device the others hang from.
    func gatewayConfigs() -> [Publication] {
        let (holder, entities) = gateway
        switch mode {
        case .device: return [deviceConfig(entities, of: holder)]
        case .entity: return entities.map { entityConfig($0, of: holder) }
        }
    }

    /// What the gateway's configs are made of: the holder, and its entities.
    private var gateway: (Holder, [HomeAssistantModel.Entity]) {
        let identifier = "gatt2mqtt_\(topics.identity)"
        let holder = Holder(
            node: gatewayNode, uniqueID: identifier, objectID: identifier, topic: topics.gatewayTopic,
            device: .object(
                [
                    "identifiers": .array([.string(identifier)]), "name": .string("gatt2mqtt \(topics.gateway)"),
                    "manufacturer": .string(GatewayHomeAssistant.model.manufacturer),
                    "model": .string(GatewayHomeAssistant.model.model),
                    "sw_version": .string(Gatt2MQTTVersion.current),
                ].merging(configurationURL.map { ["configuration_url": .string($0)] } ?? [:]) { $1 }),
            availability: [gatewayOnline])
        return (holder, GatewayHomeAssistant.model.entities)
    }

    /// Empty retained payloads that remove every config of `device` from Home Assistant.
    func removals(for device: Device) -> [Publication] {
        switch mode {
        case .device: [.state(deviceTopic(node(device)), "")]
        case .entity: entities(for: device).map { .state(configTopic($0.component, node(device), $0.object), "") }
        }
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
    static let origin = JSONValue.object([
        "name": .string("gatt2mqtt"), "sw_version": .string(Gatt2MQTTVersion.current),
    ])

    /// What every device node of this gateway starts with, before `<family>_<identity>`: the fleet's, or outside a
    /// fleet (`fleet.enabled: false`) the gateway's own.
    var nodePrefix: String { (fleet ? topics.fleetIdentity : topics.identity) + "_" }

    /// The node prefixes whose configs are this gateway's to keep or sweep: in a fleet the per-gateway ones of earlier
    /// releases too.
    var ownNodePrefixes: [String] { fleet ? [nodePrefix, topics.identity + "_"] : [nodePrefix] }

    /// The gateway's own node.
    var gatewayNode: String { "gatt2mqtt_\(topics.identity)" }

    func node(_ device: Device) -> String {
        "\(nodePrefix)\(device.family.rawValue)_\(device.identity)"
    }

    /// The node a release before 0.9.0 (or `fleet.enabled: false` before 0.10.0) gave a device: the gateway's, and
    /// the device's MQTT id.
    private func perGatewayNode(_ device: Device) -> String {
        "\(topics.identity)_\(device.family.rawValue)_\(device.id)"
    }

    private func configTopic(_ component: String, _ node: String, _ object: String) -> String {
        "\(prefix)/\(component)/\(node)/\(object)/config"
    }

    /// A device config's topic.
    private func deviceTopic(_ node: String) -> String { "\(prefix)/device/\(node)/config" }

    /// The entities announced for `device`: its family's, the diagnostics, in a fleet the owner; less those hidden.
    private func entities(for device: Device) -> [HomeAssistantModel.Entity] {
        allEntities(for: device).filter { !isHidden($0, of: device) }
    }

    private func allEntities(for device: Device) -> [HomeAssistantModel.Entity] {
        device.model.entities + DeviceDiagnostics.entities + (fleet ? [GatewayHomeAssistant.owner] : [])
    }

    /// Hidden by `devices.entities`, or reading a stream of a device whose streams are off (`devices.streaming`), unless
    /// the entity is chosen shown.
    private func isHidden(_ entity: HomeAssistantModel.Entity, of device: Device) -> Bool {
        guard !entity.isTrigger else { return false }
        switch device.options.entities[entity.object] {
        case .hidden?: return true
        case .enabled?, .disabled?: return false
        case nil:
            return !device.options.streaming && entity.topics["state_topic"].map(device.streamLeaves.contains) == true
        }
    }

    // MARK: Payloads

    /// What the entities of one Home Assistant device (a served device, or the gateway) share.
    private struct Holder {
        /// The config topics' node id.
        var node: String
        /// Each entity's unique id is this, `_`, its object.
        var uniqueID: String
        /// Each entity's object id (and so its entity id) is this, `_`, its object.
        var objectID: String
        /// A leaf's full topic.
        var topic: (String) -> String
        var device: JSONValue
        /// Empty for an entity that is always available.
        var availability: [JSONValue]
    }

    /// One entity's config on its own topic, with the device block and the origin.
    private func entityConfig(
        _ entity: HomeAssistantModel.Entity, of holder: Holder, choices: [String: DeviceOptions.EntityChoice] = [:]
    ) -> Publication {
        var payload = fields(of: entity, of: holder, choice: choices[entity.object])
        payload["device"] = holder.device
        payload["origin"] = Self.origin
        return .state(configTopic(entity.component, holder.node, entity.object), JSONValue.object(payload).text)
    }

    /// A device config: the device block and the origin once, each entity a component named by its object, with the
    /// fields its own config would have and its platform. Its discovery id in Home Assistant (`<node> <object>`) is
    /// the one its per-entity config has, which is what lets `DiscoveryMigration` keep its entity.
    private func deviceConfig(
        _ entities: [HomeAssistantModel.Entity], of holder: Holder, choices: [String: DeviceOptions.EntityChoice] = [:]
    ) -> Publication {
        var components: [String: JSONValue] = [:]
        for entity in entities {
            var component = fields(of: entity, of: holder, choice: choices[entity.object])
            component["platform"] = .string(entity.component)
            components[entity.object] = .object(component)
        }
        let payload: [String: JSONValue] = [
            "device": holder.device, "origin": Self.origin, "components": .object(components),
        ]
        return .state(deviceTopic(holder.node), JSONValue.object(payload).text)
    }

    /// What an entity's config says of the entity itself, whichever config carries it; `choice` is the device's own
    /// for it (`devices.entities`).
    private func fields(
        of entity: HomeAssistantModel.Entity, of holder: Holder, choice: DeviceOptions.EntityChoice?
    ) -> [String: JSONValue] {
        var payload = entity.fields
        for (field, leaf) in entity.topics { payload[field] = .string(holder.topic(leaf)) }
        // Only when Home Assistant first adds the entity: a user who enabled or disabled it keeps that choice. The
        // device's own choice before the gateway's for fast streams.
        switch choice {
        case .enabled?: payload["enabled_by_default"] = nil
        case .disabled?: payload["enabled_by_default"] = .bool(false)
        case .hidden?, nil:
            if entity.isFastStream && !fastStreams { payload["enabled_by_default"] = .bool(false) }
        }
        if !entity.isTrigger {
            payload["unique_id"] = .string("\(holder.uniqueID)_\(entity.object)")
            // The entity id Home Assistant gives it at first: `default_entity_id` since 2025.10, which deprecated
            // `object_id` and drops it in 2026.4; `object_id` too for the releases before 2025.10, which know only
            // that one (Zigbee2MQTT sends both the same way).
            let objectID = "\(holder.objectID)_\(entity.object)"
            payload["default_entity_id"] = .string(Self.entityID(entity.component, objectID))
            payload["object_id"] = .string(objectID)
            // An entity that needs only the gateway online (`HomeAssistantModel.Entity.Availability`) follows its status.
            let availability: [JSONValue] =
                switch entity.needs {
                case .deviceConnected: holder.availability
                case .gatewayOnline: [gatewayOnline]
                case .always: []
                }
            if !availability.isEmpty {
                payload["availability_mode"] = .string("all")
                payload["availability"] = .array(availability)
            }
        }
        return payload
    }

    /// Available only when the device is connected and the gateway that announced it (in a fleet: its owner, which
    /// announces it again when it takes the device over) is online.
    private func availability(_ device: Device) -> [JSONValue] {
        let connected = JSONValue.object([
            "topic": .string(topics.device(device.family, device.id, "connection")),
            "value_template": .string("{{ 'online' if value == 'connected' else 'offline' }}"),
        ])
        return [gatewayOnline, connected]
    }

    /// The announcing gateway's status (in a fleet: the owner's).
    private var gatewayOnline: JSONValue { .object(["topic": .string(topics.status)]) }

    private func deviceBlock(_ device: Device) -> JSONValue {
        let (manufacturer, model) = (device.model.manufacturer, device.model.model)
        var block: [String: JSONValue] = [
            "identifiers": .array([.string("gatt2mqtt_\(node(device))")]),
            "connections": .array([.array([.string("mac"), .string(device.address.lowercased())])]),
            "name": .string(device.options.name ?? device.name ?? "\(model) \(device.id)"),
            "manufacturer": .string(manufacturer), "model": .string(model),
            "via_device": .string("gatt2mqtt_\(topics.identity)"),
        ]
        if let firmware = device.firmware { block["sw_version"] = .string(firmware) }
        if let hardware = device.hardware { block["hw_version"] = .string(hardware) }
        if let serial = device.serial { block["serial_number"] = .string(serial) }
        // The page shows the device's live values and sends its commands, connects and forgets it.
        if let configurationURL { block["configuration_url"] = .string(configurationURL) }
        return .object(block)
    }
}
