import BlueZ
import Peripherals

/// The feelSpace naviBelt family.
struct BeltDriver: CommandedFamily, WrittenFamily {
    static let family = DeviceFamily.belt
    var commandExamples: [CommandExample] { BeltCommandParser.examples }
    let navigations = BeltNavigationStore()
    var liveStateLeaves: Set<String> { ["mode", "battery", "intensity", "heading_offset", "compass_accuracy_signal"] }
    /// The orientation, up to ten times a second, as a number and as JSON.
    var streamLeaves: Set<String> { ["heading", "orientation"] }
    var keptLeaves: Set<String> { ["navigation", "navigation_signal"] }

    func matches(_ device: BlueZDevice) -> Bool {
        BeltAdvertisement.matches(name: device.name ?? device.alias, serviceUUIDs: device.serviceUUIDs)
    }

    func parseCommand(_ name: String, payload: CommandPayload) throws(CommandError) -> BeltBridgeCommand {
        try BeltCommandParser.parse(command: name, payload: payload)
    }

    func session(for device: BlueZDevice, context: SessionContext) -> ProfileSession<BeltFamilyProfile> {
        ProfileSession(device: device, context: context, profile: BeltFamilyProfile(navigations: navigations))
    }

    /// Navigation for a belt this gateway has served and that has no session now (BlueZ forgot it): kept,
    /// published, applied when the belt comes back.
    func executeWithoutSession(id: String, command: BeltBridgeCommand, publisher: BrokerPublisher)
        throws(CommandError) -> [String: JSONValue]
    {
        guard case .navigation(let request) = command,
            let (actions, signal) = try navigations.update(
                id,
                { (navigation: inout BeltNavigation) throws(CommandError) in try navigation.handle(request, now: .now) }
            )
        else { throw CommandError(.notConnected, "no belt \(id) is known to this gateway") }
        for case .publishState(let state) in actions {
            publisher.publish(.state(publisher.topics.device(.belt, id, "navigation"), state.rawValue))
        }
        publisher.publish(
            .state(publisher.topics.device(.belt, id, "navigation_signal"), NavigationIntent.payload(signal)))
        return ["applied": .bool(false)]
    }

    /// A renamed belt's navigation, said under its new id as a session would say it.
    func moveKept(from old: String, to new: String, topics: TopicMap) -> [Publication] {
        guard let navigation = navigations.move(from: old, to: new) else { return [] }
        return [
            .state(topics.device(.belt, new, "navigation"), navigation.state.rawValue),
            .state(topics.device(.belt, new, "navigation_signal"), NavigationIntent.payload(navigation.signal)),
        ]
    }

    /// The broker's word on every belt's navigation, from whichever gateway published it.
    var followedLeaves: [String] { ["navigation", "navigation_signal"] }

    func followed(id: String, leaf: String, payload: [UInt8]) -> Bool {
        switch leaf {
        case "navigation":
            guard let state = BeltNavigation.State(rawValue: String(decoding: payload, as: UTF8.self)) else {
                return payload.isEmpty
            }
            navigations.heard(id, state: state)
        case "navigation_signal":
            guard let signal = NavigationIntent.signal(from: payload) else { return false }
            navigations.heard(id, signal: signal)
        default:
            return false
        }
        return true
    }
}

extension BeltDriver {
    init(configuration: BridgeConfiguration) { self.init() }
}

extension DeviceFamily {
    public static let belt = DeviceFamily(declaring: "belt")
}
