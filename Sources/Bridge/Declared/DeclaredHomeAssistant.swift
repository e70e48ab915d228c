import Peripherals

extension DeclaredDriver {
    /// A declared device in Home Assistant: a sensor for each value it publishes (a yes-or-no bit as a binary sensor;
    /// a field of a characteristic's JSON through a template), with its field's unit; measurements that are not
    /// retained come often, so they are fast streams (added disabled); what is read once is diagnostic. Lists (RR
    /// intervals) have no entity. The battery, as every device's. What a value's `homeassistant:` declares replaces
    /// what is derived (`apply`).
    var homeAssistant: HomeAssistantModel {
        HomeAssistantModel(
            manufacturer: "Declared device", model: declaration.label,
            entities: declaration.characteristics.flatMap(Self.entities) + declaration.commands.compactMap(Self.entity)
                + [.battery()])
    }

    /// A command's entity: a button for one of constant bytes, a number for one of a single number (its range, and
    /// its scale as the step), sending the MQTT API's JSON; none for a command of two numbers or more, or of a step
    /// finer than Home Assistant's 0.001 (the MQTT API alone takes them).
    private static func entity(of command: DeclaredCommand) -> HomeAssistantModel.Entity? {
        let name = DeclaredDriver.label(of: command.name)
        let fields = command.parts.compactMap { part -> (name: String, step: Double, range: ClosedRange<Double>)? in
            guard case .field(let field, let type, let scale, _, let range) = part else { return nil }
            // A whole number of the scale's steps; a float takes any value, at Home Assistant's finest step.
            return (field, type.isInteger ? scale.apply(1) : 0.001, range)
        }
        switch fields.count {
        case 0:
            return .button(command.name, name, command: command.name)
        case 1 where fields[0].step >= 0.001:
            let field = fields[0]
            return HomeAssistantModel.Entity(
                component: "number", object: command.name, topics: ["command_topic": "cmd/\(command.name)"],
                fields: [
                    "name": .string(name), "min": .number(field.range.lowerBound),
                    "max": .number(field.range.upperBound),
                    "step": .number(field.step), "mode": .string("box"),
                    "command_template": .string("{\"\(field.name)\": {{ value }}}"),
                ])
        default:
            return nil
        }
    }

    private static func entities(of characteristic: DeclaredCharacteristic) -> [HomeAssistantModel.Entity] {
        var values: [(name: String, kind: ValueKind, unit: String?, retained: Bool, declared: DeclaredEntity?)] = []
        for field in characteristic.fields {
            for bits in field.bits {
                let flag = bits.width == 1 && bits.enumeration.isEmpty && bits.homeAssistant?.component != "sensor"
                values.append(
                    (bits.name, flag ? .flag : .word, nil, characteristic.retains(bits, of: field), bits.homeAssistant))
            }
            guard field.published, !field.repeated else { continue }
            let numeric = field.type != .utf8 && field.enumeration.isEmpty && field.unlisted == nil
            values.append(
                (field.name, numeric ? .number : .word, field.unit, characteristic.retains(field), field.homeAssistant))
        }
        var seen: Set<String> = []
        return values.filter { seen.insert($0.name).inserted && $0.declared?.shown != false }.map { value in
            let leaf = characteristic.topic ?? value.name
            let object = characteristic.entityObject(of: value.name)
            let name = DeclaredDriver.label(of: value.name)
            var fields: [String: JSONValue] = [:]
            if characteristic.topic != nil {
                fields["value_template"] = .string(Self.template(of: value.name, value.kind))
            } else if value.kind == .flag {
                fields["payload_on"] = .string("true")
                fields["payload_off"] = .string("false")
            }
            if let unit = value.unit { fields["unit_of_measurement"] = .string(unit) }
            if value.kind == .number { fields["state_class"] = .string("measurement") }
            var entity =
                value.kind == .flag
                ? HomeAssistantModel.Entity(
                    component: "binary_sensor", object: object, topics: ["state_topic": leaf],
                    fields: fields.merging(["name": .string(name)]) { $1 })
                : .sensor(object, name, leaf: leaf, fields)
            if !value.retained, value.declared?.enabled != true { entity = entity.fastStream() }
            if !characteristic.isRepeated {
                entity.fields["entity_category"] = .diagnostic
                entity = entity.whileGatewayOnline()
            }
            return value.declared.map { apply($0, to: entity) } ?? entity
        }
    }

    /// What a value's `homeassistant:` says, over what was derived: its device class, state class (`none`: none),
    /// name and icon; `enabled: false` adds it disabled.
    private static func apply(_ declared: DeclaredEntity, to derived: HomeAssistantModel.Entity)
        -> HomeAssistantModel.Entity
    {
        var entity = derived
        if let deviceClass = declared.deviceClass { entity.fields["device_class"] = .string(deviceClass) }
        if let stateClass = declared.stateClass {
            entity.fields["state_class"] = stateClass == "none" ? nil : .string(stateClass)
        }
        if let name = declared.name { entity.fields["name"] = .string(name) }
        if let icon = declared.icon { entity.fields["icon"] = .string(icon) }
        if declared.enabled == false { entity.fields["enabled_by_default"] = .bool(false) }
        return entity
    }

    /// A member of a characteristic's JSON, as its entity shows it. A value whose flags leave the member out (the
    /// scale's time stamp, the power meter's torque) keeps what the entity showed: an empty text, which Home Assistant
    /// ignores for a number and a binary sensor, or the entity's own state for a word. The empty payload a retained
    /// state is cleared with is unknown. A bare `value_json.<name>` made Home Assistant log a warning for every value
    /// without the member and an error for every clearing (its live test saw 60 with one scale).
    static func template(of name: String, _ kind: ValueKind) -> String {
        let member = "value_json.\(name)"
        let shown = kind == .flag ? "('ON' if \(member) else 'OFF')" : member
        let kept = kind == .word ? "this.state" : "''"
        return
            "{{ \(shown) if value_json is defined and '\(name)' in value_json else (\(kept) if value_json is defined else None) }}"
    }

    enum ValueKind { case number, word, flag }
}
