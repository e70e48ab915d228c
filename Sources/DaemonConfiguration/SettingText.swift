import Bridge

/// A setting's value from one line of text, by its kind: a flag's argument (`--cpr-range-mm 40,65`) or an
/// environment variable (`GATT2MQTT_DEVICES_ALLOW=AA:…,BB:…`). Lists are comma-separated; a mapping is
/// `key=value` pairs separated by commas. `name` (the flag or variable) names it in errors.
enum SettingText {
    static func value(_ text: String, kind: SettingKind, name: String) throws(ConfigurationError) -> SettingValue {
        switch kind {
        case .number:
            guard let number = Double(text.trimming()) else {
                throw ConfigurationError(key: name, message: "must be a number, not '\(text)'")
            }
            return .number(number)
        case .integer:
            guard let integer = Int(text.trimming()) else {
                throw ConfigurationError(key: name, message: "must be a whole number, not '\(text)'")
            }
            return .integer(integer)
        case .integers:
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let integers = parts.compactMap { Int($0.trimming()) }
            guard integers.count == parts.count else {
                throw ConfigurationError(key: name, message: "must be whole numbers separated by commas, not '\(text)'")
            }
            return .integers(integers)
        case .list:
            return .list(text.split(separator: ",").map { String($0.trimming()) })
        case .map:
            var entries: [String: String] = [:]
            for pair in text.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, !parts[0].trimming().isEmpty else {
                    throw ConfigurationError(
                        key: name, message: "must be key=value pairs separated by commas, not '\(text)'")
                }
                let key = String(parts[0].trimming())
                guard entries[key] == nil else { throw ConfigurationError(key: name, message: "gives '\(key)' twice") }
                entries[key] = String(parts[1].trimming())
            }
            return .map(entries)
        case .text, .path:
            return .text(text)
        case .secret:
            return .secret(Secret(value: text))
        }
    }
}
