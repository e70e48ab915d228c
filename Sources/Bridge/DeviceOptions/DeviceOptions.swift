/// What a user chose for one device rather than for its family or the gateway (`devices.names`, `devices.entities`,
/// `devices.streaming`, `devices.intervals`): its name in Home Assistant, which of its entities Home Assistant adds
/// enabled, disabled or not at all, whether its fast streams reach the broker, and how often its family's periodic
/// work runs for it. Changed over `request/options`, each applies at once.
public struct DeviceOptions: Sendable, Equatable {
    /// The device's name in Home Assistant; nil: its alias, else its advertised name, else the family's model and its
    /// `<id>`.
    public var name: String?
    /// Entity object (`heading`, `battery`, `last_seen`) → what Home Assistant is told of it.
    public var entities: [String: EntityChoice] = [:]
    /// False: the values of the family's fast streams (a belt's heading, an Activ5's force, a band's angle) are dropped
    /// before the broker (`FamilyDriver.streamLeaves`), and Home Assistant is not told of the entities that read them.
    public var streaming = true
    /// A family's interval setting (`battery_s`, `FamilySettings.perDeviceIntervals`) → this device's own; a setting
    /// its family does not have is ignored (the maps are keyed by address, whatever the device is).
    public var intervals: [String: Duration] = [:]

    public init(
        name: String? = nil, entities: [String: EntityChoice] = [:], streaming: Bool = true,
        intervals: [String: Duration] = [:]
    ) {
        self.name = name
        self.entities = entities
        self.streaming = streaming
        self.intervals = intervals
    }

    /// What a device has when nothing is chosen for it.
    public static let standard = DeviceOptions()

    /// What Home Assistant is told of: all but the intervals, which change no entity.
    var homeAssistantView: DeviceOptions {
        var view = self
        view.intervals = [:]
        return view
    }

    /// `intervals` as the configuration writes them: setting → seconds (`300`).
    public var intervalsInSeconds: [String: String] {
        intervals.mapValues { EffectiveSetting.number(EffectiveSetting.seconds($0)) }
    }

    /// How Home Assistant gets one entity of the device.
    public enum EntityChoice: String, Sendable, CaseIterable {
        /// Added enabled, fast streams too (`enabled_by_default`, which Home Assistant reads only when it first adds an
        /// entity: one a user disabled or enabled keeps that choice).
        case enabled
        /// Added disabled.
        case disabled
        /// Not announced: Home Assistant removes the entity; its topic is published as before.
        case hidden
    }

    /// Every entity object a device of any family may have (its family's, the diagnostics every device has, and the
    /// owner a fleet adds), which `devices.entities` may name.
    public static func entityObjects(with configuration: BridgeConfiguration) -> Set<String> {
        let families = FamilyRegistry.drivers.flatMap { $0.init(configuration: configuration).homeAssistant.entities }
        let entities = families + DeviceDiagnostics.entities + [GatewayHomeAssistant.owner]
        return Set(entities.filter { !$0.isTrigger }.map(\.object))
    }

    /// Every interval setting some family lets one device have its own of, which `devices.intervals` may name.
    public static var intervalSettings: Set<String> {
        Set(FamilySettingsStore.sections.compactMap(\.settings).flatMap { $0.perDeviceIntervals })
    }

    /// A name Home Assistant can show: 1 to 64 characters, none of them a control character.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
