/// Why a claim payload was refused. The message names the field and the rule, so an operator
/// reading the log can find the gateway that publishes bad claims.
public enum ClaimDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The payload is longer than any valid claim can be.
    case tooLarge(bytes: Int, limit: Int)
    /// The payload is not well-formed JSON; `offset` is the byte where reading stopped.
    case malformed(offset: Int, reason: String)
    /// The payload is JSON but not an object.
    case notAnObject
    /// A field name appears twice.
    case duplicateField(String)
    /// A required field is absent.
    case missingField(String)
    /// A field holds the wrong kind of value.
    case wrongType(field: String, expected: String)
    /// A number lies outside what the field allows.
    case outOfRange(field: String, value: String, allowed: String)
    /// The state is not one of candidate, owner, released.
    case unknownState(String)
    /// The gateway name is empty, too long, or uses characters unsafe in a topic.
    case invalidGatewayName(String)
    /// The device key taken from the topic is empty.
    case emptyDeviceKey

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            "claim payload is \(bytes) bytes, more than the \(limit) a claim can take"
        case .malformed(let offset, let reason):
            "claim payload is not valid JSON at byte \(offset): \(reason)"
        case .notAnObject:
            "claim payload must be a JSON object"
        case .duplicateField(let field):
            "claim field \"\(field)\" appears more than once"
        case .missingField(let field):
            "claim field \"\(field)\" is missing"
        case .wrongType(let field, let expected):
            "claim field \"\(field)\" must be \(expected)"
        case .outOfRange(let field, let value, let allowed):
            "claim field \"\(field)\" is \(value), outside \(allowed)"
        case .unknownState(let state):
            "claim state \"\(state)\" is not one of candidate, owner, released"
        case .invalidGatewayName(let name):
            "claim gateway name \"\(name)\" must be 1 to 64 characters of A-Z a-z 0-9 . _ -"
        case .emptyDeviceKey:
            "claim device key (from the topic) is empty"
        }
    }
}
