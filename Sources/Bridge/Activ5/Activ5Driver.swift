import BlueZ
import Peripherals

/// The Activ5 family (ActivBody isometric force sensor).
struct Activ5Driver: CommandedFamily, WrittenFamily {
    static let family = DeviceFamily.a5
    static let settings: (any FamilySettings.Type)? = Activ5Options.self
    var options: Activ5Options
    var commandExamples: [CommandExample] { Activ5CommandParser.examples }
    let desired = DesiredStateStore()
    var liveStateLeaves: Set<String> { ["squeeze", "state", "battery"] }
    /// The force and the motion, at the sample rate (up to 100 a second); squeezes are events, not the stream.
    var streamLeaves: Set<String> { ["force", "imu"] }
    var keptLeaves: Set<String> { ["desired"] }
    var followedLeaves: [String] { ["desired"] }

    func moveKept(from old: String, to new: String, topics: TopicMap) -> [Publication] {
        moveDesired(desired, from: old, to: new, topics: topics)
    }

    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool {
        followDesired(desired, id: id, leaf: leaf, payload: payload)
    }

    func matches(_ device: BlueZDevice) -> Bool {
        Activ5Advertisement.matches(name: device.name ?? device.alias, serviceUUIDs: device.serviceUUIDs)
    }

    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> Activ5BridgeCommand {
        try Activ5CommandParser.parse(command: name, payload: payload)
    }

    func session(for device: BlueZDevice, context: SessionContext) -> ProfileSession<Activ5FamilyProfile> {
        ProfileSession(
            device: device, context: context, profile: Activ5FamilyProfile(options: options, desired: desired))
    }
}

extension Activ5Driver {
    init(configuration: BridgeConfiguration) { options = configuration.activ5 }
}

extension DeviceFamily {
    public static let a5 = DeviceFamily(declaring: "a5")
}
