import BlueZ
import Peripherals

/// A family declared as data (`DeviceDeclaration`, from a YAML file): served as a written family is, by the same
/// engine, adoption, fleet, Home Assistant, live page, metrics and replies, its commands included.
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

    /// The declared command of that name with its payload's numbers encoded, checked here before any device is
    /// asked: a number missing, out of its range or not a whole number of its steps is refused, never written.
    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> DeclaredCommandCall {
        guard let command = declaration.commands.first(where: { $0.name == name }) else {
            let known = declaration.commands.map(\.name)
            throw CommandError(
                .unknownCommand,
                "unknown \(declaration.label) command '\(name)'; known: "
                    + (known.isEmpty ? "none" : known.joined(separator: ", ")))
        }
        try payload.rejectUnknownFields(allowed: Set(command.fieldNames))
        var numbers: [String: Double] = [:]
        for field in command.fieldNames {
            guard let value = payload.fields[field] else { continue }
            guard case .number(let number) = value else {
                throw CommandError(.invalidValue, "'\(field)' must be a number")
            }
            numbers[field] = number
        }
        do throws(DeclaredCommandError) {
            return DeclaredCommandCall(command: command, bytes: try command.encode(numbers))
        } catch {
            throw CommandError(.invalidValue, error.description)
        }
    }

    func session(for device: BlueZDevice, context: SessionContext) -> ProfileSession<DeclaredFamilyProfile> {
        ProfileSession(device: device, context: context, profile: profile)
    }

    /// Retained leaves of what is notified, indicated or polled, and the battery: they would lie while the device is
    /// away. What is read once (a sensor's location, its features) stays true (`keptLeaves`).
    var liveStateLeaves: Set<String> {
        Set(declaration.characteristics.filter(\.isRepeated).flatMap { $0.leaves(retained: true) }).union(["battery"])
    }
    var keptLeaves: Set<String> {
        Set(declaration.characteristics.filter { !$0.isRepeated }.flatMap { $0.leaves(retained: true) })
    }
    /// What is not retained: the measurements, which `devices.streaming: off` keeps from the broker.
    var streamLeaves: Set<String> { Set(declaration.characteristics.flatMap { $0.leaves(retained: false) }) }
    /// Each command with its fields at their lowest.
    var commandExamples: [CommandExample] {
        declaration.commands.map { command in
            let fields = command.parts.compactMap { part -> (String, JSONValue)? in
                guard case .field(let name, _, _, _, let range) = part else { return nil }
                return (name, .number(range.lowerBound))
            }
            return CommandExample(command.name, JSONValue.object(Dictionary(uniqueKeysWithValues: fields)).text)
        }
    }

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
