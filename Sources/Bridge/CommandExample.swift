/// A command a family takes, with a payload that works as it stands: what the live page's forms start
/// from. Each family's list is also its list of command names, so the two cannot drift apart.
public struct CommandExample: Sendable, Equatable {
    public let command: String
    public let payload: String

    public init(command: String, payload: String) {
        self.command = command
        self.payload = payload
    }

    init(_ command: String, _ payload: String) { self.init(command: command, payload: payload) }
}
