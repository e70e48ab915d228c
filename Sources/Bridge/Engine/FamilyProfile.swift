import BlueZ

/// A device family declared for the one session engine (`ProfileSession`): its command type, the state its streams
/// keep during a connection, the memory it keeps across connections, the characteristics it streams (each with a pure
/// reducer), what it does before and after connecting, and how it executes a command. The engine owns everything
/// else: the connection's tasks, subscriptions and lanes, answer waiters, the retained leaves, the one publish path,
/// the lifecycle. A profile holds no task and has no teardown: what a connection knew ends with it
/// (`initialStreamState` again at the next one), what outlives it is its `Memory`.
protocol FamilyProfile: Sendable {
    associatedtype Command: Sendable
    /// What the streams keep from one value to the next, during one connection.
    associatedtype StreamState: Sendable
    /// What the session keeps from one connection to the next (a keep-awake users turned on).
    associatedtype Memory: Sendable = Void

    var family: DeviceFamily { get }
    /// How long one connection attempt may take (10 s by default, as BlueZ's own LE connection attempt).
    var connectTimeout: Duration { get }
    /// Whether a lost device is reconnected by itself (true by default).
    var reconnects: Bool { get }
    /// Whether the link's vitals report `rssi` (true by default); false where the family reports it itself.
    var reportsSignal: Bool { get }
    /// Whether the streams are subscribed before the handshake, as a vendor's library does when the handshake's
    /// writes make the device talk (false by default: after it).
    var subscribesBeforeHandshake: Bool { get }
    /// The stream state a connection starts with.
    var initialStreamState: StreamState { get }
    /// The memory the session of device `id` starts with (a belt's navigation, kept by its driver).
    func initialMemory(for id: String) -> Memory
    /// The streams, subscribed in this order (those `atStart`) around the handshake; the others when the profile
    /// asks (`ConnectedDevice.subscribe`).
    var streams: [ProfileStream<StreamState>] { get }
    /// Work repeated while connected (a battery read every minute), started once the device is connected.
    var timers: [ProfileTimer<Self>] { get }

    /// Before the link is up: what the device needs first (the grip's bond). Nothing by default.
    func prepare(_ device: ConnectedDevice<Self>) async throws
    /// Once the link is up: reads, requests, checks, the retained state the device starts with.
    func handshake(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome
    /// The streams are subscribed and live: what the device says once it is ready (nothing by default).
    func streamsAreLive(_ device: ConnectedDevice<Self>)
    /// The device is `connected`: what follows (a mode users chose, restored), before the timers start.
    func connected(_ device: ConnectedDevice<Self>) async
    /// A value no stream took (an answer), under the lane's lock, before the answer waiters see it (a handshake's
    /// progress). Nothing by default.
    func heard(_ bytes: [UInt8], from characteristic: String, in state: inout StreamState)
    /// A value of a control stream (`ProfileStream.isControl`), once its reducer has published what it says and the
    /// answer waiters have seen it: what the device's word makes the profile do (answer a keep-alive, follow a
    /// mode), beside the stream (`ConnectedDevice.spawn`). Nothing by default.
    func react(to bytes: [UInt8], from characteristic: String, on device: ConnectedDevice<Self>)
    /// The link ended (its tasks have): what the stream state says of it before it starts over (a practice cut
    /// short ends in its summary). Nothing by default.
    func linkEnded(_ state: inout StreamState) -> [LeafOutput]
    /// The link ended: what the memory keeps of it, and where it is kept beyond the session (a belt's navigation,
    /// in its driver's store). Nothing by default.
    func linkEnded(remembering memory: inout Memory, for id: String)
    /// Executes a command the family's parser made (only while connected; `name` as it came, for messages);
    /// returns what its reply adds.
    func execute(_ command: Command, name: String, on device: ConnectedDevice<Self>) async throws(CommandError)
        -> [String: JSONValue]
    /// A command while the device is not connected: its reply when the profile takes it anyway (navigation a belt
    /// applies when it comes back), nil when it needs the device (by default: `not_connected`).
    func executeWhileAway(_ command: Command, name: String, on device: ConnectedDevice<Self>) throws(CommandError)
        -> [String: JSONValue]?
}

extension FamilyProfile {
    var connectTimeout: Duration { .seconds(10) }
    var reconnects: Bool { true }
    var reportsSignal: Bool { true }
    var subscribesBeforeHandshake: Bool { false }
    var timers: [ProfileTimer<Self>] { [] }
    func prepare(_ device: ConnectedDevice<Self>) async throws {}
    func streamsAreLive(_ device: ConnectedDevice<Self>) {}
    func connected(_ device: ConnectedDevice<Self>) async {}
    func heard(_ bytes: [UInt8], from characteristic: String, in state: inout StreamState) {}
    func react(to bytes: [UInt8], from characteristic: String, on device: ConnectedDevice<Self>) {}
    func linkEnded(_ state: inout StreamState) -> [LeafOutput] { [] }
    func linkEnded(remembering memory: inout Memory, for id: String) {}
    func executeWhileAway(_ command: Command, name: String, on device: ConnectedDevice<Self>) throws(CommandError)
        -> [String: JSONValue]?
    { nil }
}

extension FamilyProfile where Memory == Void {
    func initialMemory(for id: String) {}
}

extension FamilyProfile where Command == Never {
    func execute(_ command: Never, name: String, on device: ConnectedDevice<Self>) async throws(CommandError)
        -> [String: JSONValue]
    {}
}

/// How a handshake ended.
enum HandshakeOutcome: Sendable, Equatable {
    /// The device is ready: its streams are subscribed and go live.
    case streaming
    /// The device is connected but is not to be streamed from (firmware below what the profile supports): it stays
    /// `connected`, and the log says why.
    case silent(reason: String)
}

/// One characteristic whose notifications are a stream of the family.
struct ProfileStream<State: Sendable>: Sendable {
    var characteristic: String
    var service: String?
    /// Subscribed by the engine around the handshake; false: when the profile asks (a handshake's step, a command).
    var atStart = true
    /// A stream the device may lack (a battery that only answers reads): the session goes on without it.
    var isOptional = false
    /// Read once before subscribing, the value taken as a notification (a battery level known before the first
    /// change), when the characteristic answers reads.
    var readFirst = false
    /// A stream of the device's word rather than of measurements (a belt's keep-alives, modes and answers): every
    /// value comes to the connection's task in order (never taken on the receiving thread), and after its reducer
    /// it goes to `FamilyProfile.heard`, the answer waiters and `FamilyProfile.react` as well.
    var isControl = false
    /// The pure reducer: one value and the stream state to what to publish; nil for a value that is not the stream's
    /// (an answer: it goes to `FamilyProfile.heard` and the answer waiters); throws for bytes that do not decode
    /// (counted and logged by the engine, nothing published).
    var reduce: @Sendable (inout State, [UInt8]) throws -> [LeafOutput]?
}

/// Work a profile repeats while its device is connected, in the connection's scope (ended with the link).
struct ProfileTimer<Profile: FamilyProfile>: Sendable {
    /// Its name in the connection's scope.
    var key: String
    var interval: Duration
    /// The family's setting of `interval` (`battery_s`) where one device may have its own (`devices.intervals`).
    var setting: String?
    var action: @Sendable (ConnectedDevice<Profile>) async -> Void

    init(
        key: String, interval: Duration, pacedBy setting: String? = nil,
        action: @escaping @Sendable (ConnectedDevice<Profile>) async -> Void
    ) {
        self.key = key
        self.interval = interval
        self.setting = setting
        self.action = action
    }
}

/// What a reducer, a handshake or a command publishes, by leaf of the device's topics (`<family>/<id>/<leaf>`).
enum LeafOutput: Sendable, Equatable {
    /// State: retained, QoS 1, sent only when it differs from what the leaf last said.
    case state(String, String)
    /// A value of a stream: not retained, at `qos` (0 for a fast stream, 1 for an event a user must not miss).
    case value(String, String, qos: Int)
}
