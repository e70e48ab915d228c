import BlueZ
import Peripherals

/// The Credo CPR-Band family.
struct CPRBandDriver: FamilyDriver {
    var options: CPRBandOptions
    var family: DeviceFamily { .cpr }
    var commandExamples: [CommandExample] { CPRBandCommandParser.examples }

    func matches(_ device: BlueZDevice) -> Bool { CPRBandAdvertisement.matches(name: device.name ?? device.alias) }

    func validate(command: String, payload: CommandPayload) throws(CommandError) {
        _ = try CPRBandCommandParser.parse(command: command, payload: payload)
    }

    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession {
        CPRBandSession(device: device, context: context, options: options)
    }
}
