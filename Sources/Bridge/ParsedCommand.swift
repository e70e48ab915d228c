/// A command as its family's parser made it, once, on the receive path: the typed value the session
/// executes and the name it came under (for the reply and error messages). Nothing parses it again.
struct ParsedCommand: Sendable {
    var name: String
    var value: any Sendable

    /// The typed value, as the session of the family that parsed it expects it.
    func value<Command: Sendable>(as type: Command.Type, family: DeviceFamily) throws(CommandError) -> Command {
        // Commands are routed by family, so another type here is a routing bug, answered rather than trapped.
        guard let typed = value as? Command else {
            throw CommandError(.unknownCommand, "'\(name)' is not a \(family.rawValue) command")
        }
        return typed
    }
}
