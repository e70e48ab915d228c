import Peripherals

/// A command's payload, checked before anything else looks at it: size, UTF-8, nesting and JSON.
/// A plain scalar (`app`, `42`) is accepted for commands with one argument.
public struct CommandPayload: Sendable, Equatable {
    /// The payload's members when it is a JSON object; a scalar is stored under `value`.
    public var fields: [String: JSONValue]
    /// The caller's `transaction`, echoed in the reply.
    public var transaction: JSONValue?

    /// Largest payload accepted, in bytes.
    public static let defaultSizeLimit = 16 * 1024
    /// Deepest JSON nesting accepted.
    public static let maximumDepth = 16

    public init(bytes: [UInt8], sizeLimit: Int = CommandPayload.defaultSizeLimit) throws(CommandError) {
        guard bytes.count <= sizeLimit else {
            throw CommandError(.invalidPayload, "payload is \(bytes.count) bytes, the limit is \(sizeLimit)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandError(.invalidPayload, "payload is not valid UTF-8")
        }
        let trimmed = text.trimming()
        if trimmed.isEmpty {
            fields = [:]
            return
        }
        guard Self.depth(of: bytes) <= Self.maximumDepth else {
            throw CommandError(.invalidPayload, "payload nests deeper than \(Self.maximumDepth) levels")
        }
        switch JSONValue.parse(bytes) {
        case .object(var members):
            // The decoder keeps one of two values of a key and says nothing: which one the sender meant is unknown.
            if let key = DuplicateKeys.first(in: bytes) {
                throw CommandError(.invalidPayload, "payload has the key '\(key.prefix(64))' twice")
            }
            transaction = members.removeValue(forKey: "transaction")
            fields = members
        case .some(.array):
            throw CommandError(.invalidPayload, "payload must be a JSON object or a single value, not an array")
        case .some(let scalar):
            fields = ["value": scalar]
        case nil where trimmed.first == "{" || trimmed.first == "[":
            throw CommandError(.invalidPayload, "payload is not valid JSON")
        case nil:
            // A bare word such as `app` is the plain-text form of a one-argument command.
            fields = ["value": .string(trimmed)]
        }
    }

    /// Bracket depth outside strings; counted before parsing so a hostile payload cannot exhaust the stack.
    private static func depth(of bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                deepest = max(deepest, depth)
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return deepest
    }

    // MARK: Typed fields

    /// A required string field (or the scalar payload).
    public func string(_ name: String, orValue: Bool = false) throws(CommandError) -> String {
        guard let value = fields[name] ?? (orValue ? fields["value"] : nil) else {
            throw CommandError(.invalidValue, "'\(name)' is required")
        }
        guard case .string(let text) = value else { throw CommandError(.invalidValue, "'\(name)' must be a string") }
        return text
    }

    /// An optional string field.
    public func optionalString(_ name: String) throws(CommandError) -> String? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .string(let text) = value else { throw CommandError(.invalidValue, "'\(name)' must be a string") }
        return text
    }

    /// An optional whole number within `range`.
    public func optionalInteger(_ name: String, in range: ClosedRange<Int>) throws(CommandError) -> Int? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .number(let number) = value, number.isFinite, number == number.rounded() else {
            throw CommandError(.invalidValue, "'\(name)' must be a whole number")
        }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw CommandError(.invalidValue, "'\(name)' must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return Int(number)
    }

    /// A required whole number within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard let value = try optionalInteger(name, in: range) else {
            throw CommandError(.invalidValue, "'\(name)' is required")
        }
        return value
    }

    /// Fails on any field the command does not know, so typos do not pass silently.
    public func rejectUnknownFields(allowed: Set<String>) throws(CommandError) {
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw CommandError(.invalidValue, "unknown field '\(unknown)'")
        }
    }
}

extension CommandPayload {
    /// An optional boolean field.
    public func optionalBool(_ name: String) throws(CommandError) -> Bool? {
        guard let value = fields[name], value != .null else { return nil }
        guard case .bool(let flag) = value else { throw CommandError(.invalidValue, "'\(name)' must be true or false") }
        return flag
    }
}
