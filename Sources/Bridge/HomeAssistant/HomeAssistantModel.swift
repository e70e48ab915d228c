/// What a device family shows Home Assistant, declared by the family itself (`FamilyDriver.homeAssistant`):
/// its make and model and its entities, each naming the device's topics by leaf. `HomeAssistantDiscovery`
/// turns a declaration into configs for any device of the family, so a new family adds none of its
/// own cases there.
struct HomeAssistantModel: Sendable {
    var manufacturer: String
    var model: String
    var entities: [Entity]

    /// One entity: its platform, its object id, the fields that name one of the device's topics (by leaf:
    /// `state_topic` → `heading`) and the fields taken as written.
    struct Entity: Sendable {
        var component: String
        var object: String
        var topics: [String: String]
        var fields: [String: JSONValue]

        /// Device triggers have no name, availability or unique id.
        var isTrigger: Bool { component == "device_automation" }

        static func sensor(_ object: String, _ name: String, leaf: String, _ extra: [String: JSONValue] = [:]) -> Entity {
            Entity(component: "sensor", object: object, topics: ["state_topic": leaf], fields: ["name": .string(name)].merging(extra) { $1 })
        }

        /// A battery percentage read from the JSON on `leaf` by `template`: diagnostic, so Home Assistant shows it
        /// with the device's state of health rather than among what the device measures.
        static func battery(leaf: String = "battery", template: String) -> Entity {
            sensor("battery", "Battery", leaf: leaf, [
                "device_class": .string("battery"), "unit_of_measurement": .string("%"), "state_class": .string("measurement"),
                "value_template": .string(template), "entity_category": .string("diagnostic"),
            ])
        }

        /// A device trigger on the events of `leaf`.
        static func trigger(_ object: String, leaf: String, type: String, subtype: String, template: String?, payload: String) -> Entity {
            var fields: [String: JSONValue] = [
                "automation_type": .string("trigger"), "type": .string(type), "subtype": .string(subtype), "payload": .string(payload),
            ]
            if let template { fields["value_template"] = .string(template) }
            return Entity(component: "device_automation", object: object, topics: ["topic": leaf], fields: fields)
        }
    }
}
