import BlueZ
import Peripherals

/// The camera grip family, as the configured `GripProfile` describes it.
struct GripDriver: CommandedFamily, WrittenFamily {
    var profile: GripProfile
    static let family = DeviceFamily.grip
    static let settings: (any FamilySettings.Type)? = GripSettings.self
    /// A bonded grip connects at start, as its SDK restores it.
    var restoresBondedDevices: Bool { true }
    var commandExamples: [CommandExample] { [] }
    var liveStateLeaves: Set<String> { ["battery"] }
    /// None: a grip sends events (button presses), each one wanted.
    var streamLeaves: Set<String> { [] }
    var keptLeaves: Set<String> { ["bonded", "state"] }

    func matches(_ device: BlueZDevice) -> Bool {
        profile.matches(name: device.name ?? device.alias, serviceUUIDs: device.serviceUUIDs)
    }

    /// The grip only sends; bonding and forgetting go through the gateway's requests.
    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> Never {
        throw Self.noCommands(name)
    }

    static func noCommands(_ name: String) -> CommandError {
        CommandError(
            .unknownCommand,
            "the grip takes no commands ('\(name)'); pair and forget it with gatt2mqtt/<gateway>/request/pair and forget"
        )
    }

    func session(for device: BlueZDevice, context: SessionContext) -> ProfileSession<GripFamilyProfile> {
        ProfileSession(device: device, context: context, profile: GripFamilyProfile(profile: profile))
    }
}

extension GripDriver {
    init(configuration: BridgeConfiguration) { self.init(profile: configuration.gripProfile) }
}

extension DeviceFamily {
    public static let grip = DeviceFamily(declaring: "grip")
}
