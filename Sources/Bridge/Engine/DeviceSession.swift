import BlueZ
import Logging

/// Which of BlueZ's reports said a link ended: a session's log says it (debug), as several can end the same link and
/// one of them may be late, of the link before.
enum LinkEndReport: String, Sendable {
    /// The device's `Connected` became false.
    case connectedFalse = "Connected false"
    /// The device's GATT services were removed.
    case servicesRemoved = "services removed"
}

/// One connected (or reconnecting) peripheral of any family.
protocol DeviceSession: Actor {
    nonisolated var id: String { get }
    nonisolated var family: DeviceFamily { get }
    /// Keeps the device connected until the task is cancelled.
    func run() async
    /// The link is gone with BlueZ itself (`org.bluez` left the bus); BlueZ's own reports go to the method below.
    func linkDidDrop()
    /// BlueZ reports the device's `Connected` false or its GATT services gone: this link ended, or a late report of
    /// the one before.
    func linkReportedDisconnected(_ report: LinkEndReport)
    /// Disconnects at shutdown.
    func shutDown() async
}

/// What every session gets from the bridge.
struct SessionContext: Sendable {
    /// The device's link: BlueZ's (`DeviceLink`), or one in memory for a session under test.
    var link: @Sendable (BlueZDevice) -> any GATTLink
    var publisher: BrokerPublisher
    var logger: Logger
    var gateway: String
    /// The device's `<id>` in topics: its alias, or its address in hex.
    var id: String
    /// Its family's `liveStateLeaves`.
    var liveStateLeaves: Set<String> = []
    /// Counters for the health report.
    var metrics = DeviceMetrics()
    /// The device's connection state, held here once: the session sets it, the gateway reads it.
    var connection = ConnectionRecord()
    /// Told of every connection-state change, once it is recorded (for the gateway's inventory).
    var stateChanged: @Sendable (ConnectionState) -> Void = { _ in }
    /// Told what the device says of itself, each time its retained `info` changes (for Home Assistant's device page).
    var described: @Sendable ([String: JSONValue]) -> Void = { _ in }
    /// Whether the device's fast streams reach the broker (`devices.streaming`), switched by the gateway.
    var streams = StreamSwitch()
    /// The device's own intervals (`devices.intervals`), set by the gateway.
    var intervals = DeviceIntervals()
    /// Stretches the connection's set-up and the waits for the device's answers (`BridgeConfiguration.slowLinkFactor`).
    var slowLinkFactor = 1.0
}

/// A device family the bridge serves: which devices are its own, how its commands are checked, and
/// how a session for one device is made.
protocol FamilyDriver: Sendable {
    /// The family's name in topics: a written family's own (`WrittenFamily`), or a declaration's.
    var family: DeviceFamily { get }
    func matches(_ device: BlueZDevice) -> Bool
    /// Parses a command, once, without a device, so that bad input is refused even for an absent device
    /// (`CommandedFamily` makes it from the family's typed parser).
    func parse(command: String, payload: CommandPayload) throws(CommandError) -> ParsedCommand
    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession
    /// The retained leaves that describe a connected device (its mode, battery, settings). They would lie
    /// while the device is away, so they are cleared when its link ends, and after a crash by the next
    /// start (topics.md, "Retained state"). `connection`, `info` and the family's own memory (the belt's
    /// `navigation`, the grip's `bonded`, the band's last `session`) stay: they are true while away.
    var liveStateLeaves: Set<String> { get }
    /// The family's retained leaves that stay true while its device is away, beside those of every device
    /// (`retainedByEveryDevice`): its memory (the belt's `navigation`, the grip's `bonded`, the band's last `session`)
    /// and what users asked for (`desired`). With `liveStateLeaves`, every retained topic of the family's devices,
    /// as topics.md's tables say (`RetainedLeavesDocumentTests`): all cleared under a device's old id when it is
    /// renamed.
    var keptLeaves: Set<String> { get }
    /// The leaves of the family's streams: the values a device sends many times a minute or more, which
    /// `devices.streaming: off` keeps from the broker (and Home Assistant's entities that read them from Home
    /// Assistant).
    var streamLeaves: Set<String> { get }
    /// Moves what the family keeps under a device's id (what users asked for, which outlives a session) to the id
    /// it was renamed to, and returns the retained publications that say it there; none by default.
    func moveKept(from old: String, to new: String, topics: TopicMap) -> [Publication]
    /// What the family shows Home Assistant (`<Family>HomeAssistant.swift` in its folder).
    var homeAssistant: HomeAssistantModel { get }
    /// How the live page shows its devices (`<Family>LivePage.swift` in its folder).
    var livePage: LivePageCard { get }
    /// Every command the family takes, with a working payload (none for a family without commands).
    var commandExamples: [CommandExample] { get }
    /// Leaves of its devices' retained topics (`<family>/+/<leaf>`) the family follows, from any gateway:
    /// what users asked for, which the next gateway to serve a device takes over.
    var followedLeaves: [String] { get }
    /// One such message; false when its payload is malformed (the bridge logs it).
    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool
    /// Whether a bonded device of this family connects at start whatever the auto-connect policy says, as
    /// its SDK restores it (the grip); false by default.
    var restoresBondedDevices: Bool { get }
}

extension FamilyDriver {
    /// The retained leaves every device has: `connection`, `info`, `last_seen` and, from the fleet, `owner`.
    static var retainedByEveryDevice: Set<String> { ["connection", "info", "last_seen", "owner"] }
    /// Every retained leaf of the family's devices.
    var retainedLeaves: Set<String> { Self.retainedByEveryDevice.union(liveStateLeaves).union(keptLeaves) }
    func moveKept(from old: String, to new: String, topics: TopicMap) -> [Publication] { [] }
    var followedLeaves: [String] { [] }
    var restoresBondedDevices: Bool { false }
    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool { true }
}

/// A family written in Swift, in its folders and one line of `FamilyRegistry`: what it is known by before any driver
/// runs (the configuration's sections, the benchmark's streams, the topics' families).
protocol WrittenFamily: FamilyDriver {
    /// The family's name in topics, declared by the family itself.
    static var family: DeviceFamily { get }
    /// The family's section of the configuration (`<Family>Settings.swift` in its folder); nil for none.
    static var settings: (any FamilySettings.Type)? { get }
    /// The family's main stream as the benchmark drives it (`<Family>Stream.swift` in its folder).
    static var stream: FamilyStream { get }
    /// The driver the gateway runs, with its family's settings.
    init(configuration: BridgeConfiguration)
}

extension WrittenFamily {
    var family: DeviceFamily { Self.family }
    static var settings: (any FamilySettings.Type)? { nil }
}
