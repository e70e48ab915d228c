import BlueZ
import Peripherals

/// The Credo CPR-Band family.
struct CPRBandDriver: FamilyDriver {
    static let family = DeviceFamily.cpr
    static let settings: (any FamilySettings.Type)? = CPRBandOptions.self
    var options: CPRBandOptions
    var commandExamples: [CommandExample] { CPRBandCommandParser.examples }
    let desired = DesiredStateStore()
    var liveStateLeaves: Set<String> { ["mode", "battery"] }
    var followedLeaves: [String] { ["desired"] }

    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool {
        followDesired(desired, id: id, leaf: leaf, payload: payload)
    }

    func matches(_ device: BlueZDevice) -> Bool { CPRBandAdvertisement.matches(name: device.name ?? device.alias) }

    func parse(command: String, payload: CommandPayload) throws(CommandError) -> ParsedCommand {
        ParsedCommand(name: command, value: try CPRBandCommandParser.parse(command: command, payload: payload))
    }

    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession {
        CPRBandSession(device: device, context: context, options: options, desired: desired)
    }
}

extension CPRBandDriver {
    init(configuration: BridgeConfiguration) { options = configuration.cprBand }
}

extension DeviceFamily {
    public static let cpr = DeviceFamily(declaring: "cpr")
}
