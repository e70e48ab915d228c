import Bridge

/// Settings in effect as one JSON object in the file's own keys, for the gateway's retained `info`: a path's levels
/// are nested objects; a secret is `"set"` or `"unset"`, never its value; what is not set is null.
enum EffectiveSettingsJSON {
    static func object(_ settings: [EffectiveSetting]) -> JSONValue {
        var root: [String: JSONValue] = [:]
        for setting in settings {
            insert(value(setting.value), at: setting.path.split(separator: ".").map(String.init)[...], into: &root)
        }
        return .object(root)
    }

    private static func insert(_ value: JSONValue, at path: ArraySlice<String>, into object: inout [String: JSONValue])
    {
        guard let key = path.first else { return }
        guard path.count > 1 else {
            object[key] = value
            return
        }
        var inner: [String: JSONValue] = if case .object(let members)? = object[key] { members } else { [:] }
        insert(value, at: path.dropFirst(), into: &inner)
        object[key] = .object(inner)
    }

    private static func value(_ value: EffectiveSetting.Value) -> JSONValue {
        switch value {
        case .number(let number): .number(number)
        case .word(let word): .string(word)
        case .text(let text): .string(text)
        case .integers(let values): .array(values.map { .number(Double($0)) })
        case .flag(let flag): .bool(flag)
        case .texts(let texts): .array(texts.map(JSONValue.string))
        case .mapping(let pairs): .object(pairs.mapValues(JSONValue.string))
        case .secret(let isSet, _): .string(isSet ? "set" : "unset")
        case .unset: .null
        }
    }
}
