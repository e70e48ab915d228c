import BlueZ
import Peripherals

/// Heart rate sensors that implement the Bluetooth SIG's standard Heart Rate service (chest straps such as Polar's
/// and Garmin's): any device that advertises the service is one, whatever its name.
struct HeartRateDriver: CommandedFamily, WrittenFamily {
    static let family = DeviceFamily.hr
    /// What every session of the family runs.
    var profile = HeartRateFamilyProfile()
    /// What a connected sensor tells that would lie while it is away; `location` stays (where it is worn).
    var liveStateLeaves: Set<String> { ["battery", "contact", "energy"] }
    /// The rate and the RR intervals, with every measurement (about one a second).
    var streamLeaves: Set<String> { ["bpm", "rr"] }
    var keptLeaves: Set<String> { ["location"] }
    var commandExamples: [CommandExample] { [CommandExample("reset_energy", "{}")] }

    func matches(_ device: BlueZDevice) -> Bool {
        device.serviceUUIDs.contains { BluetoothUUID.normalized($0) == HeartRateGATT.Service.heartRate }
    }

    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> HeartRateCommand {
        guard name == "reset_energy" else {
            throw CommandError(.unknownCommand, "unknown heart rate command '\(name)'; known: reset_energy")
        }
        try payload.rejectUnknownFields(allowed: [])
        return .resetEnergy
    }

    func session(for device: BlueZDevice, context: SessionContext) -> ProfileSession<HeartRateFamilyProfile> {
        ProfileSession(device: device, context: context, profile: profile)
    }
}

extension HeartRateDriver {
    init(configuration: BridgeConfiguration) { self.init() }
}

/// What a heart rate sensor is asked to do.
enum HeartRateCommand: Sendable, Equatable {
    /// Sets the energy expended back to zero (Heart Rate Control Point, 0x01).
    case resetEnergy
}

extension DeviceFamily {
    public static let hr = DeviceFamily(declaring: "hr")
}
