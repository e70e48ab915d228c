import BlueZ
import Peripherals

/// A family declared as data (`DeviceDeclaration`, from a YAML file): served as a written family is, by the same
/// engine, adoption, fleet, Home Assistant, live page and metrics. It takes no commands yet.
struct DeclaredDriver: CommandedFamily {
    let profile: DeclaredFamilyProfile

    init(declaration: DeviceDeclaration) { profile = DeclaredFamilyProfile(declaration: declaration) }

    var declaration: DeviceDeclaration { profile.declaration }
    var family: DeviceFamily { profile.family }

    /// A device is one when its name starts with one of the prefixes, it advertises one of the services, or its
    /// advertised manufacturer data is one of the companies'.
    func matches(_ device: BlueZDevice) -> Bool {
        let match = declaration.match
        if let name = device.name ?? device.alias, match.namePrefixes.contains(where: { name.hasPrefix($0) }) {
            return true
        }
        return device.serviceUUIDs.contains { match.services.contains(BluetoothUUID.normalized($0)) }
            || device.manufacturerIDs.contains { match.manufacturers.contains($0) }
    }

    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> Never {
        throw CommandError(.unknownCommand, "a declared \(declaration.label) takes no commands ('\(name)')")
    }

    func session(for device: BlueZDevice, context: SessionContext) -> ProfileSession<DeclaredFamilyProfile> {
        ProfileSession(device: device, context: context, profile: profile)
    }

    /// Retained leaves of what is notified, indicated or polled, and the battery: they would lie while the device is
    /// away. What is read once (a sensor's location, its features) stays true (`keptLeaves`).
    var liveStateLeaves: Set<String> {
        Set(declaration.characteristics.filter { $0.retain && $0.isRepeated }.flatMap(\.leaves)).union(["battery"])
    }
    var keptLeaves: Set<String> {
        Set(declaration.characteristics.filter { $0.retain && !$0.isRepeated }.flatMap(\.leaves))
    }
    /// What is not retained: the measurements, which `devices.streaming: off` keeps from the broker.
    var streamLeaves: Set<String> { Set(declaration.characteristics.filter { !$0.retain }.flatMap(\.leaves)) }
    var commandExamples: [CommandExample] { [] }

    /// A field's or a topic's name for people: `wheel_revolutions` → `Wheel revolutions`.
    static func label(of name: String) -> String {
        let spaced = String(name.map { $0 == "_" ? " " : $0 })
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }
}

extension DeclaredCharacteristic {
    /// Whether its values come again and again (notified, indicated or polled) rather than once a connection.
    var isRepeated: Bool { access != .read }
}
