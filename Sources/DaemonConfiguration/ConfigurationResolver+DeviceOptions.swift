import Bridge

/// `devices.names`, `devices.entities` and `devices.streaming`: what is chosen for single devices, one map per option,
/// keyed by address as `devices.aliases` is (so each works from the file, the options, the environment and a flag).
extension ConfigurationResolver {
    /// Every device's options, by upper-case address. `entityObjects` are the entities `devices.entities` may name.
    func resolveDeviceOptions(entityObjects: Set<String>) throws(ConfigurationError) -> [String: DeviceOptions] {
        var options: [String: DeviceOptions] = [:]
        for (written, entry) in try entries(of: .deviceNames) {
            guard DeviceOptions.isValidName(entry.value) else {
                // Not repeated: a control character in it would reach the log and the answer as it is.
                throw ConfigurationError(
                    key: written,
                    message: "must be 1 to 64 characters, none a control character (it has \(entry.value.count))")
            }
            options[entry.address, default: .standard].name = entry.value
        }
        for (written, entry) in try entries(of: .deviceEntities, entitySuffix: true) {
            let object = entry.entity ?? ""
            guard entityObjects.contains(object) else {
                throw ConfigurationError(
                    key: written,
                    message: "'\(object)' is no entity a device has (\(entityObjects.sorted().joined(separator: ", ")))"
                )
            }
            guard let choice = DeviceOptions.EntityChoice(rawValue: entry.value) else {
                throw ConfigurationError(
                    key: written, message: "must be enabled, disabled or hidden, not '\(entry.value)'")
            }
            options[entry.address, default: .standard].entities[object] = choice
        }
        for (written, entry) in try entries(of: .deviceStreaming) {
            guard ["on", "off"].contains(entry.value) else {
                throw ConfigurationError(key: written, message: "must be on or off, not '\(entry.value)'")
            }
            options[entry.address, default: .standard].streaming = entry.value == "on"
        }
        return options.filter { $0.value != .standard }
    }

    /// One entry of a per-device map: the device's upper-case address, the entity after its `/` where the map names
    /// entities, and the value.
    private struct Entry {
        var address: String
        var entity: String?
        var value: String
    }

    /// The entries of `key`, each with its name as written (`devices.names.AA:BB:CC:DD:EE:FF`), in the order of their
    /// keys; a key that is no address (with `/entity` after it where `entitySuffix`) is refused, and so is a device
    /// (or a device's entity) given twice in different spellings.
    private func entries(
        of key: ConfigurationKey, entitySuffix: Bool = false
    ) throws(ConfigurationError) -> [(String, Entry)] {
        var result: [(String, Entry)] = []
        var seen: Set<String> = []
        for (written, value) in map(key).sorted(by: { $0.key < $1.key }) {
            let name = "\(name(key)).\(written)"
            let parts = written.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let expected =
                entitySuffix
                ? "a Bluetooth address and an entity (AA:BB:CC:DD:EE:FF/battery)"
                : "a Bluetooth address (AA:BB:CC:DD:EE:FF)"
            guard parts.count == (entitySuffix ? 2 : 1), let address = Self.normalizedAddress(parts[0]) else {
                throw ConfigurationError(key: name, message: "'\(written)' is not \(expected)")
            }
            let entry = Entry(address: address, entity: entitySuffix ? parts[1] : nil, value: value)
            guard seen.insert(address + "/" + (entry.entity ?? "")).inserted else {
                throw ConfigurationError(key: name, message: "\(address) is given twice")
            }
            result.append((name, entry))
        }
        return result
    }
}
