#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JSON value, for command payloads in and replies and telemetry out.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Compact JSON text with keys in a stable order (sorted), so payloads are reproducible.
    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            guard value.isFinite else { return "null" }
            if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
            return String(value)
        case .string(let value): return Self.quoted(value)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { Self.quoted($0.key) + ":" + $0.value.text }.joined(
                    separator: ",") + "}"
        }
    }

    /// `text` as a JSON string, quotes included. Control characters and DEL are escaped, so the result is also a
    /// valid YAML double-quoted scalar (the effective configuration is printed with it).
    public static func quoted(_ text: String) -> String {
        // Most texts (every key, most values) need no escape: copied whole, not scalar by scalar (the declared
        // families' JSON spent a quarter of its notification path here).
        if !text.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
        }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Parses JSON text; nil when it is not JSON. (JSONDecoder is strict: no NaN, no comments.)
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }
}

extension JSONValue {
    /// The text of a string; nil for anything else.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A number without a fractional part that fits an Int; nil for anything else.
    public var wholeNumber: Int? {
        if case .number(let value) = self { return Int(exactly: value) }
        return nil
    }
}

extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let value = try decoder.singleValueContainer()
        // Bool first: JSONDecoder never reads a number as a Bool, so `true` and `1` stay apart.
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try value.decode(String.self))
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
