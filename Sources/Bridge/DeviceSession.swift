import BlueZ
import Logging

/// One connected (or reconnecting) peripheral of any family.
protocol DeviceSession: Actor {
    nonisolated var id: String { get }
    nonisolated var family: DeviceFamily { get }
    /// Keeps the device connected until the task is cancelled.
    func run() async
    /// BlueZ reports the link down (or BlueZ itself went away).
    func linkDidDrop()
    /// Disconnects at shutdown.
    func shutDown() async
    /// Executes a command; throws the error to reply with.
    func execute(command: String, payload: CommandPayload) async throws(CommandError)
    /// Executes a command and returns what its reply adds (e.g. `"applied":false`).
    func executeForReply(command: String, payload: CommandPayload) async throws(CommandError) -> [String: JSONValue]
}

extension DeviceSession {
    func executeForReply(command: String, payload: CommandPayload) async throws(CommandError) -> [String: JSONValue] {
        try await execute(command: command, payload: payload)
        return [:]
    }
}

/// What every session gets from the bridge.
struct SessionContext: Sendable {
    var bluez: BlueZClient
    var publisher: BrokerPublisher
    var logger: Logger
    var gateway: String
    /// The device's `<id>` in topics: its alias, or its address in hex.
    var id: String
    /// Counters for the health report.
    var metrics = DeviceMetrics()
    /// Told of every connection-state change (for the gateway's inventory).
    var stateChanged: @Sendable (ConnectionState) -> Void = { _ in }
}

/// A device family the bridge serves: which devices are its own, how its commands are checked, and
/// how a session for one device is made.
protocol FamilyDriver: Sendable {
    var family: DeviceFamily { get }
    func matches(_ device: BlueZDevice) -> Bool
    /// Checks a command without a device, so that bad input is refused even for an absent device.
    func validate(command: String, payload: CommandPayload) throws(CommandError)
    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession
    /// Every command the family takes, with a working payload (none for a family without commands).
    var commandExamples: [CommandExample] { get }
    /// Leaves of its devices' retained topics (`<family>/+/<leaf>`) the family follows, from any gateway:
    /// what users asked for, which the next gateway to serve a device takes over.
    var followedLeaves: [String] { get }
    /// One such message; false when its payload is malformed (the bridge logs it).
    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool
    /// Executes a command for device `id` of this family that has no session here; returns what its reply
    /// adds. By default there is nothing to do without the device: `notConnected`.
    func executeWithoutSession(id: String, command: String, payload: CommandPayload, publisher: BrokerPublisher) throws(CommandError)
        -> [String: JSONValue]
}

extension FamilyDriver {
    var followedLeaves: [String] { [] }
    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool { true }

    func executeWithoutSession(id: String, command: String, payload: CommandPayload, publisher: BrokerPublisher) throws(CommandError)
        -> [String: JSONValue]
    {
        throw CommandError(.notConnected, "no \(family.rawValue) \(id) is known to this gateway")
    }
}
