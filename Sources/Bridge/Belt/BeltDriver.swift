import BlueZ
import Peripherals

/// The feelSpace naviBelt family.
struct BeltDriver: FamilyDriver {
    var family: DeviceFamily { .belt }
    var commandExamples: [CommandExample] { BeltCommandParser.examples }
    let navigations = BeltNavigationStore()

    func matches(_ device: BlueZDevice) -> Bool {
        BeltAdvertisement.matches(name: device.name ?? device.alias, serviceUUIDs: device.serviceUUIDs)
    }

    func validate(command: String, payload: CommandPayload) throws(CommandError) {
        _ = try BeltCommandParser.parse(command: command, payload: payload)
    }

    func makeSession(for device: BlueZDevice, context: SessionContext) -> any DeviceSession {
        BeltSession(device: device, context: context, navigations: navigations)
    }

    /// Navigation for a belt this gateway has served and that has no session now (BlueZ forgot it): kept,
    /// published, applied when the belt comes back.
    func executeWithoutSession(id: String, command: String, payload: CommandPayload, publisher: BrokerPublisher) throws(CommandError)
        -> [String: JSONValue]
    {
        guard case .navigation(let request) = try BeltCommandParser.parse(command: command, payload: payload),
            let actions = try navigations.update(id, { (navigation: inout BeltNavigation) throws(CommandError) in try navigation.handle(request, now: .now) })
        else { throw CommandError(.notConnected, "no belt \(id) is known to this gateway") }
        for case .publishState(let state) in actions { publisher.publish(.state(publisher.topics.device(.belt, id, "navigation"), state.rawValue)) }
        return ["applied": .bool(false)]
    }
}
