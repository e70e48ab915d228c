/// What a device family shows Home Assistant, declared by the family itself (`FamilyDriver.homeAssistant`):
/// its make and model and its entities, each naming the device's topics by leaf. `HomeAssistantDiscovery`
/// turns a declaration into configs for any device of the family, so a new family adds none of its
/// own cases there.
struct HomeAssistantModel: Sendable {
    var manufacturer: String
    var model: String
    var entities: [Entity]
    /// Entities an earlier release announced and this one does not (a read-only `mode` sensor that became a
    /// select): their configs are cleared at each announcement, so an upgrade leaves no dead entity behind.
    var retired: [Retired] = []

    struct Retired: Sendable, Equatable {
        var component: String
        var object: String
    }

    /// One entity: its platform, its object id, the fields that name one of the device's topics (by leaf:
    /// `state_topic` → `heading`, `command_topic` → `cmd/mode`) and the fields taken as written.
    struct Entity: Sendable {
        var component: String
        var object: String
        var topics: [String: String]
        var fields: [String: JSONValue]
        /// A stream faster than a value every few seconds (`fastStream()`): Home Assistant adds it disabled.
        var isFastStream = false
        /// What the entity needs to be available: by default the gateway and the device's connection.
        var needs = Availability.deviceConnected

        /// What must hold for Home Assistant to show an entity as available.
        enum Availability: Sendable {
            /// The gateway is online and the device connected: a value the device gives only while it is there.
            case deviceConnected
            /// The gateway is online: what stays true while the device is away (its connection itself, when it was
            /// last seen, its last error, its last session).
            case gatewayOnline
            /// Always: the gateway's status, which shows it offline.
            case always
        }

        /// This entity, with one more field naming one of the device's topics by leaf.
        func withTopic(_ field: String, leaf: String) -> Self {
            var entity = self
            entity.topics[field] = leaf
            return entity
        }

        /// This entity, available whenever the gateway is online.
        func whileGatewayOnline() -> Self {
            var entity = self
            entity.needs = .gatewayOnline
            return entity
        }

        /// This entity, always available.
        func alwaysAvailable() -> Self {
            var entity = self
            entity.needs = .always
            return entity
        }

        /// Device triggers have no name, availability or unique id.
        var isTrigger: Bool { component == "device_automation" }

        static func sensor(_ object: String, _ name: String, leaf: String, _ extra: [String: JSONValue] = [:]) -> Entity
        {
            Entity(
                component: "sensor", object: object, topics: ["state_topic": leaf],
                fields: ["name": .string(name)].merging(extra) { $1 })
        }

        /// A battery percentage read from the JSON on `leaf`: diagnostic, so Home Assistant shows it with the
        /// device's state of health rather than among what the device measures.
        static func battery(leaf: String = "battery", _ expression: String = "value_json.level") -> Entity {
            sensor(
                "battery", "Battery", leaf: leaf,
                [
                    "device_class": .string("battery"), "unit_of_measurement": .string("%"),
                    "state_class": .string("measurement"),
                    "value_template": .string(fromJSON(expression)), "entity_category": .diagnostic,
                ])
        }

        /// A button that publishes `payload` on the device's `cmd/<command>`: the same JSON as the MQTT API's.
        static func button(
            _ object: String, _ name: String, command: String, payload: String = "{}",
            _ extra: [String: JSONValue] = [:]
        ) -> Entity {
            Entity(
                component: "button", object: object, topics: ["command_topic": "cmd/\(command)"],
                fields: ["name": .string(name), "payload_press": .string(payload)].merging(extra) { $1 })
        }

        /// A switch whose state is `isOn` (a Jinja condition on the retained payload of `leaf`) and which sends
        /// `on` or `off` to `cmd/<command>`. An empty payload (the state cleared while the device is away) is
        /// unknown, not off.
        static func toggle(
            _ object: String, _ name: String, leaf: String, isOn: String, command: String, on: String, off: String,
            _ extra: [String: JSONValue] = [:]
        ) -> Entity {
            Entity(
                component: "switch", object: object, topics: ["state_topic": leaf, "command_topic": "cmd/\(command)"],
                fields: [
                    "name": .string(name), "payload_on": .string(on), "payload_off": .string(off),
                    "state_on": .string("ON"), "state_off": .string("OFF"),
                    "value_template": .string("{{ None if value == '' else ('ON' if \(isOn) else 'OFF') }}"),
                ].merging(extra) { $1 })
        }

        /// A select of `options`, read from `leaf` and sent as plain text to `cmd/<command>`. A state that is no
        /// option (a mode the device enters by itself) reads as unknown instead of an error in Home Assistant's log.
        static func select(
            _ object: String, _ name: String, leaf: String, options: [String], command: String,
            _ extra: [String: JSONValue] = [:]
        ) -> Entity {
            let list = options.map { "'\($0)'" }.joined(separator: ", ")
            return Entity(
                component: "select", object: object, topics: ["state_topic": leaf, "command_topic": "cmd/\(command)"],
                fields: [
                    "name": .string(name), "options": .array(options.map(JSONValue.string)),
                    "value_template": .string("{{ value if value in [\(list)] else None }}"),
                ].merging(extra) { $1 })
        }

        /// A number in `range` read from `leaf` (plain text) and sent as plain text to `cmd/<command>`.
        static func number(
            _ object: String, _ name: String, leaf: String, command: String, range: ClosedRange<Int>,
            _ extra: [String: JSONValue] = [:]
        ) -> Entity {
            Entity(
                component: "number", object: object, topics: ["state_topic": leaf, "command_topic": "cmd/\(command)"],
                fields: [
                    "name": .string(name), "min": .number(Double(range.lowerBound)),
                    "max": .number(Double(range.upperBound)),
                    "step": .number(1), "mode": .string("box"),
                ].merging(extra) { $1 })
        }

        /// A device trigger on the events of `leaf`.
        static func trigger(
            _ object: String, leaf: String, type: String, subtype: String, template: String?, payload: String
        ) -> Entity {
            var fields: [String: JSONValue] = [
                "automation_type": .string("trigger"), "type": .string(type), "subtype": .string(subtype),
                "payload": .string(payload),
            ]
            if let template { fields["value_template"] = .string(template) }
            return Entity(component: "device_automation", object: object, topics: ["topic": leaf], fields: fields)
        }

        /// A Jinja template that gives `expression` (on `value_json`) for a JSON payload, and None (unknown) for
        /// the empty payload a retained state is cleared with, which has no `value_json`: Home Assistant would
        /// otherwise log an undefined variable each time a device leaves.
        static func fromJSON(_ expression: String) -> String {
            "{{ (\(expression)) if value_json is defined else None }}"
        }
    }
}

extension JSONValue {
    /// `entity_category: diagnostic`: Home Assistant lists the entity with the device's state of health.
    static let diagnostic = JSONValue.string("diagnostic")
    /// `entity_category: config`: a setting of the device rather than something it measures or does.
    static let configuration = JSONValue.string("config")
}
