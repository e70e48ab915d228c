import Bridge

/// `devices.names`, `devices.entities`, `devices.streaming` and `devices.intervals`: what is chosen for single devices,
/// one map per option, keyed by address as `devices.aliases` is (so each works from the file, the options, the
/// environment and a flag).
extension ConfigurationResolver {
    /// Every device's options, by upper-case address. `entityObjects` are the entities `devices.entities` may name,
    /// `intervalSettings` the settings `devices.intervals` may.
    func resolveDeviceOptions(
        entityObjects: Set<String>, intervalSettings: Set<String>
    ) throws(ConfigurationError) -> [String: DeviceOptions] {
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
        for (written, entry) in try entries(of: .deviceEntities, suffix: .entity) {
            let object = entry.suffix ?? ""
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
        for (written, entry) in try entries(of: .deviceIntervals, suffix: .interval) {
            let setting = entry.suffix ?? ""
            guard intervalSettings.contains(setting) else {
                throw ConfigurationError(
                    key: written,
                    message:
                        "'\(setting)' is no interval a device may have its own of (\(intervalSettings.sorted().joined(separator: ", ")))"
                )
            }
            guard let seconds = Double(entry.value), seconds.isFinite else {
                throw ConfigurationError(key: written, message: "must be a number of seconds, not '\(entry.value)'")
            }
            guard let interval = PeriodicInterval.duration(seconds: seconds) else {
                throw ConfigurationError(key: written, message: PeriodicInterval.refusal(seconds))
            }
            options[entry.address, default: .standard].intervals[setting] = interval
        }
        return options.filter { $0.value != .standard }
    }

    /// One entry of a per-device map: the device's upper-case address, what follows its `/` where the map names part
    /// of a device (an entity, an interval), and the value.
    private struct Entry {
        var address: String
        var suffix: String?
        var value: String
    }

    /// What a per-device map names after the address, with an example of its keys.
    private enum Suffix {
        case entity, interval

        var expected: String {
            switch self {
            case .entity: "a Bluetooth address and an entity (AA:BB:CC:DD:EE:FF/battery)"
            case .interval: "a Bluetooth address and an interval (AA:BB:CC:DD:EE:FF/battery_s)"
            }
        }
    }

    /// The entries of `key`, each with its name as written (`devices.names.AA:BB:CC:DD:EE:FF`), in the order of their
    /// keys; a key that is no address (with `/entity` or `/interval` after it where the map has a `suffix`) is refused,
    /// and so is a device (or a device's entity) given twice in different spellings.
    private func entries(
        of key: ConfigurationKey, suffix: Suffix? = nil
    ) throws(ConfigurationError) -> [(String, Entry)] {
        var result: [(String, Entry)] = []
        var seen: Set<String> = []
        for (written, value) in map(key).sorted(by: { $0.key < $1.key }) {
            let name = "\(name(key)).\(written)"
            let parts = written.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let expected = suffix?.expected ?? "a Bluetooth address (AA:BB:CC:DD:EE:FF)"
            guard parts.count == (suffix == nil ? 1 : 2), let address = Self.normalizedAddress(parts[0]) else {
                throw ConfigurationError(key: name, message: "'\(written)' is not \(expected)")
            }
            let entry = Entry(address: address, suffix: suffix == nil ? nil : parts[1], value: value)
            guard seen.insert(address + "/" + (entry.suffix ?? "")).inserted else {
                throw ConfigurationError(key: name, message: "\(address) is given twice")
            }
            result.append((name, entry))
        }
        return result
    }
}
