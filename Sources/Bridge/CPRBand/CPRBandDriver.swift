import BlueZ
import Peripherals

/// The Credo CPR-Band family.
struct CPRBandDriver: CommandedFamily, WrittenFamily {
    static let family = DeviceFamily.cpr
    static let settings: (any FamilySettings.Type)? = CPRBandOptions.self
    var options: CPRBandOptions
    var commandExamples: [CommandExample] { CPRBandCommandParser.examples }
    let desired = DesiredStateStore()
    var liveStateLeaves: Set<String> { ["mode", "battery"] }
    /// Each compression's depth and the running statistics (about two a second), the wrist angle (ten a second).
    var streamLeaves: Set<String> { ["peak", "stats", "angle"] }
    /// The last practice or evaluation stays true while the band is away.
    var keptLeaves: Set<String> { ["desired", "session"] }
    var followedLeaves: [String] { ["desired"] }

    func moveKept(from old: String, to new: String, topics: TopicMap) -> [Publication] {
        moveDesired(desired, from: old, to: new, topics: topics)
    }

    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool {
        followDesired(desired, id: id, leaf: leaf, payload: payload)
    }

    func matches(_ device: BlueZDevice) -> Bool { CPRBandAdvertisement.matches(name: device.name ?? device.alias) }

    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> CPRBandCommand {
        try CPRBandCommandParser.parse(command: name, payload: payload)
    }

    func session(for device: BlueZDevice, context: SessionContext) -> ProfileSession<CPRBandFamilyProfile> {
        ProfileSession(
            device: device, context: context, profile: CPRBandFamilyProfile(options: options, desired: desired))
    }
}

extension CPRBandDriver {
    init(configuration: BridgeConfiguration) { options = configuration.cprBand }
}

extension DeviceFamily {
    public static let cpr = DeviceFamily(declaring: "cpr")
}
