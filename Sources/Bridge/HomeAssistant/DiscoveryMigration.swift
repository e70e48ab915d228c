/// Moving what Home Assistant holds of one device (or of the gateway) from configs per entity to a config per
/// device, or back (`homeassistant.discovery`), the way Home Assistant documents it: `{"migrate_discovery": true}` on
/// each old config whose entity lives on, which unloads the entity and keeps it (its entity id, its history, what
/// automations say of it); a pause, since Home Assistant says nothing when it is done; the old configs cleared; then
/// the new ones, whose entities take the kept ones back (each component's discovery id, `<node> <object>`, is its
/// entity config's). The old configs go before the new ones in both directions: an empty config after the new one
/// reaches the new entity under the same discovery id (Home Assistant warns of a conflicting message and keeps
/// it); and an empty device config removes every entity under its node, new ones included.
///
/// A device trigger is cleared rather than migrated: it has no entity to keep, and the automations on it name the
/// device, its type and its subtype, which stay.
struct DiscoveryMigration: Sendable, Equatable {
    /// The old configs whose entities live on: each gets the request first.
    var migrated: [String] = []
    /// Every old config, cleared after the pause.
    var cleared: [String] = []

    static let none = DiscoveryMigration()

    /// What asks Home Assistant to unload an entity and keep it.
    static let request = #"{"migrate_discovery":true}"#

    var isEmpty: Bool { cleared.isEmpty }

    var requests: [Publication] { migrated.map { .state($0, Self.request) } }
    var clears: [Publication] { cleared.map { .state($0, "") } }
}
