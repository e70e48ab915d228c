import BlueZ
import Peripherals

/// The feelSpace naviBelt family.
struct BeltDriver: FamilyDriver {
    var family: DeviceFamily { .belt }

    func matches(_ device: BlueZDevice) -> Bool {
        BeltAdvertisement.matches(name: device.name ?? device.alias, serviceUUIDs: device.serviceUUIDs)
    }

    func validate(command: String, payload: CommandPayload) throws(CommandError) {
        _ = try BeltCommandParser.parse(command: command, payload: payload)
    }

    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession {
        BeltSession(device: device, context: context)
    }
}
