/// Whether and where the gateway announces its devices to Home Assistant (`homeassistant` in the file).
public struct HomeAssistantOptions: Sendable, Equatable {
    /// Off: no discovery config is published and Home Assistant's status is not followed.
    public var enabled = true
    /// The topic prefix Home Assistant's MQTT integration listens on for discovery (its own setting of
    /// the same name); it says `online` on `<prefix>/status` when it starts.
    public var discoveryPrefix = "homeassistant"
    /// `homeassistant.fast_streams`: whether Home Assistant adds the fast streams (heading, force, compression depth,
    /// rate and wrist angle) enabled; by default they are added disabled, to spare its recorder (`FastStreams.swift`).
    public var fastStreams = false
    /// `homeassistant.discovery`: one config per device (the default) or per entity. Moving from one to the other
    /// migrates what Home Assistant holds (`DiscoveryMigration`), keeping its entity ids and history.
    public var discovery = HomeAssistantDiscoveryMode.device
    /// Home Assistant's birth messages re-announce every config at most once in this long (`BirthCoalescer`). Not a
    /// setting; a test shortens it.
    var birthHoldOff: Duration = .seconds(5)

    public init() {}
}
