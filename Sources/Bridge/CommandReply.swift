/// The answer to one command: `{"command":…,"ok":true}` or
/// `{"command":…,"ok":false,"error":{"code":…,"message":…}}`, with the caller's `transaction` echoed.
public struct CommandReply: Sendable, Equatable {
    public var command: String
    public var error: CommandError?
    public var transaction: JSONValue?
    /// What a successful reply adds, e.g. `"applied":false`.
    public var data: [String: JSONValue] = [:]

    public init(command: String, error: CommandError? = nil, transaction: JSONValue? = nil) {
        self.command = command
        self.error = error
        self.transaction = transaction
    }

    public var json: JSONValue {
        var members = error == nil ? data : [:]
        members["command"] = .string(command)
        members["ok"] = .bool(error == nil)
        if let error {
            members["error"] = .object(["code": .string(error.code.rawValue), "message": .string(error.message)])
        }
        if let transaction { members["transaction"] = transaction }
        return .object(members)
    }
}
