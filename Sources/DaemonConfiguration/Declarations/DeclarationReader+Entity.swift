import Bridge
import Peripherals

/// A field's or a bit field's `homeassistant:`: `false` (no entity), or what its entity is instead of what the gateway
/// derives. Each key is checked here, so that Home Assistant never gets a config it would refuse.
extension DeclarationReader {
    static let entityKeys = ["component", "device_class", "state_class", "enabled", "name", "icon"]

    /// `oneBit`: the value is a one-bit bit field without names, the only one that may be a binary sensor.
    static func readEntity(_ entry: DeclarationMapping, oneBit: Bool) throws(DeclarationError) -> DeclaredEntity? {
        guard let node = entry.value("homeassistant") else { return nil }
        if case .scalar = node.content {
            guard try entry.flag("homeassistant") == false else {
                throw entry.error(
                    node,
                    "homeassistant must be false (no entity) or a mapping of \(entityKeys.joined(separator: ", "))")
            }
            return DeclaredEntity(shown: false)
        }
        let keys = try DeclarationMapping(node, file: entry.file, what: "homeassistant", keys: Set(entityKeys))
        var entity = DeclaredEntity()
        if let component = try keys.text("component") {
            guard DeclaredEntity.components.contains(component) else {
                throw keys.error(
                    keys.value("component") ?? node,
                    "component must be sensor or binary_sensor, not '\(DeclarationMapping.shown(component))'")
            }
            guard component == "sensor" || oneBit else {
                throw keys.error(keys.value("component") ?? node, "binary_sensor is for a one-bit bit field")
            }
            entity.component = component
        }
        if let deviceClass = try keys.text("device_class") {
            guard isName(deviceClass) else {
                throw keys.error(
                    keys.value("device_class") ?? node, "device_class must be lower-case letters, digits or _ (power)")
            }
            entity.deviceClass = deviceClass
        }
        if let stateClass = try keys.text("state_class") {
            guard DeclaredEntity.stateClasses.contains(stateClass) else {
                throw keys.error(
                    keys.value("state_class") ?? node,
                    "state_class must be \(DeclaredEntity.stateClasses.joined(separator: ", ")), not "
                        + "'\(DeclarationMapping.shown(stateClass))'")
            }
            entity.stateClass = stateClass
        }
        entity.enabled = try keys.flag("enabled")
        if let name = try keys.text("name") {
            guard DeviceOptions.isValidName(name) else {
                throw keys.error(
                    keys.value("name") ?? node, "name must be 1 to 64 characters, none a control character")
            }
            entity.name = name
        }
        if let icon = try keys.text("icon") {
            let glyph = icon.dropFirst(4)
            guard icon.hasPrefix("mdi:"), !glyph.isEmpty, glyph.count <= 64,
                glyph.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
            else {
                throw keys.error(
                    keys.value("icon") ?? node, "icon must be mdi: and a Material Design icon's name (mdi:bike)")
            }
            entity.icon = icon
        }
        return entity
    }
}
