import BlueZ
import Peripherals

/// The camera grip family, as the configured `GripProfile` describes it.
struct GripDriver: FamilyDriver {
    var profile: GripProfile
    var family: DeviceFamily { .grip }
    var commandExamples: [CommandExample] { [] }

    func matches(_ device: BlueZDevice) -> Bool {
        profile.matches(name: device.name ?? device.alias, serviceUUIDs: device.serviceUUIDs)
    }

    /// The grip only sends; bonding and forgetting go through the gateway's requests.
    func validate(command: String, payload: CommandPayload) throws(CommandError) {
        try Self.rejectCommand(command)
    }

    static func rejectCommand(_ name: String) throws(CommandError) {
        throw CommandError(.unknownCommand, "the grip takes no commands ('\(name)'); pair and forget it with gatt2mqtt/<gateway>/request/pair and forget")
    }

    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession {
        GripSession(device: device, context: context, profile: profile)
    }
}
