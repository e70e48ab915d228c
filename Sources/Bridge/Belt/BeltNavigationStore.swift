import Synchronization

/// The navigation of every belt this gateway has served, kept while no session holds it: navigation is
/// the bridge's state, not the link's (FSLib keeps it without a belt), so it outlives a session that ends
/// when BlueZ forgets the device, and a request for such a belt is still taken and applied on connect.
final class BeltNavigationStore: Sendable {
    private let navigations = Mutex<[String: BeltNavigation]>([:])

    /// The navigation kept for belt `id`, or a stopped one for a belt never served before.
    func take(_ id: String) -> BeltNavigation { navigations.withLock { $0[id] ?? BeltNavigation() } }

    /// Keeps `navigation` for belt `id` (its session ended, or a link did).
    func keep(_ navigation: BeltNavigation, for id: String) {
        navigations.withLock { $0[id] = navigation }
    }

    /// Runs a request against the navigation of a belt this gateway has served and that has no session;
    /// nil when the gateway has never served `id`.
    func update(_ id: String, _ request: (inout BeltNavigation) throws(CommandError) -> [NavigationAction]) throws(CommandError)
        -> [NavigationAction]?
    {
        try navigations.withLock { (all: inout [String: BeltNavigation]) throws(CommandError) -> [NavigationAction]? in
            guard var navigation = all[id] else { return nil }
            let actions = try request(&navigation)
            all[id] = navigation
            return actions
        }
    }
}
