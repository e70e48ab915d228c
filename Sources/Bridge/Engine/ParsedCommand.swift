import BlueZ

/// A command as its family's parser made it, once, on the receive path: the name it came under (for the reply and
/// error messages) and what running it is, on the family's session or without one. The typed value never leaves its
/// family: `CommandedFamily` makes this from its parser's `Command`, which the compiler holds to be the one its
/// session executes. Nothing parses it again, and no session casts it.
struct ParsedCommand: Sendable {
    let name: String
    let family: DeviceFamily
    private let onSession: @Sendable (any DeviceSession) async throws(CommandError) -> [String: JSONValue]
    /// Untyped: Debian's Swift 6.2.3 (the arm64 cross compiler) fails its SIL verification on a typed-throws closure
    /// here that the optimizer makes thin (a family whose command carries nothing, the heart rate sensor's).
    private let withoutSession: @Sendable (String, BrokerPublisher) throws -> [String: JSONValue]

    init(
        name: String, family: DeviceFamily,
        onSession: @escaping @Sendable (any DeviceSession) async throws(CommandError) -> [String: JSONValue],
        withoutSession: @escaping @Sendable (String, BrokerPublisher) throws -> [String: JSONValue]
    ) {
        self.name = name
        self.family = family
        self.onSession = onSession
        self.withoutSession = withoutSession
    }

    /// Runs the command on a session of its family; returns what its reply adds, or throws the error to reply with.
    func execute(on session: any DeviceSession) async throws(CommandError) -> [String: JSONValue] {
        try await onSession(session)
    }

    /// Runs the command for device `id`, which has no session here (`CommandedFamily.executeWithoutSession`).
    func executeWithoutSession(id: String, publisher: BrokerPublisher) throws(CommandError) -> [String: JSONValue] {
        do {
            return try withoutSession(id, publisher)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
    }
}

/// A family whose commands have one type from its parser to its session.
protocol CommandedFamily: FamilyDriver {
    associatedtype Command: Sendable
    associatedtype Session: CommandedSession where Session.Command == Command
    /// Parses a command, once, without a device, so that bad input is refused even for an absent device.
    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> Command
    /// The session for one device.
    func session(for device: BlueZDevice, context: SessionContext) -> Session
    /// Executes a command for device `id` of this family that has no session here; returns what its reply adds. By
    /// default there is nothing to do without the device: `notConnected`.
    func executeWithoutSession(id: String, command: Command, publisher: BrokerPublisher) throws(CommandError)
        -> [String: JSONValue]
}

/// A session that executes its family's `Command`.
protocol CommandedSession: DeviceSession {
    associatedtype Command: Sendable
    /// Executes a command its family parsed (`name` as it came); returns what its reply adds (e.g.
    /// `"applied":false`), or throws the error to reply with.
    func execute(_ command: Command, name: String) async throws(CommandError) -> [String: JSONValue]
}

extension CommandedFamily {
    func parse(command name: String, payload: CommandPayload) throws(CommandError) -> ParsedCommand {
        let command = try parseCommand(name, payload: payload)
        let family = family
        return ParsedCommand(
            name: name, family: family,
            onSession: { (session: any DeviceSession) async throws(CommandError) -> [String: JSONValue] in
                // Commands are routed by family, so another session here is a routing bug, answered rather than trapped.
                guard let session = session as? Session else {
                    throw CommandError(.unknownCommand, "'\(name)' is not a \(session.family.rawValue) command")
                }
                return try await session.execute(command, name: name)
            },
            withoutSession: { [self] (id: String, publisher: BrokerPublisher) throws in
                try executeWithoutSession(id: id, command: command, publisher: publisher)
            })
    }

    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession {
        session(for: device, context: context)
    }

    func executeWithoutSession(id: String, command: Command, publisher: BrokerPublisher) throws(CommandError)
        -> [String: JSONValue]
    {
        throw CommandError(.notConnected, "no \(family.rawValue) \(id) is known to this gateway")
    }
}

extension DeviceSession {
    /// Runs `command`, parsed by this session's family.
    func execute(_ command: ParsedCommand) async throws(CommandError) -> [String: JSONValue] {
        try await command.execute(on: self)
    }
}
