import Locks

/// The navigation of every belt this gateway has served, kept while no session holds it: navigation is
/// the bridge's state, not the link's (FSLib keeps it without a belt), so it outlives a session that ends
/// when BlueZ forgets the device, and a request for such a belt is still taken and applied on connect.
///
/// It also follows what the broker says of every belt's navigation (`NavigationIntent`, whoever published
/// it): a session starts from whichever is newer, what this gateway kept or what it heard. So a fleet's
/// new owner carries on the navigation its predecessor ran, and a restarted gateway its own.
final class BeltNavigationStore: Sendable {
    private let state = Mutex(KeptAndHeard<BeltNavigation, NavigationIntent>())

    /// The navigation belt `id` starts a session with: the newer of what was kept and what was heard (once
    /// both halves of it are), or a stopped one.
    func take(_ id: String) -> BeltNavigation {
        state.withLock { $0.newer(id, usable: \.navigation) } ?? BeltNavigation()
    }

    /// Moves belt `old`'s navigation to `new` (the belt was renamed); what it is now, unless stopped.
    func move(from old: String, to new: String) -> BeltNavigation? {
        state.withLock {
            $0.move(from: old, to: new)
            guard let navigation = $0.newer(new, usable: \.navigation), navigation.state != .stopped else { return nil }
            return navigation
        }
    }

    /// Keeps `navigation` for belt `id` (its session ended, or a link did).
    func keep(_ navigation: BeltNavigation, for id: String) {
        state.withLock { $0.keep(navigation, for: id) }
    }

    /// Records the broker's `navigation` state for belt `id`.
    func heard(_ id: String, state navigationState: BeltNavigation.State) {
        state.withLock { $0.hear(id, empty: NavigationIntent()) { $0.state = navigationState } }
    }

    /// Records the broker's `navigation_signal` for belt `id`.
    func heard(_ id: String, signal: BeltNavigation.Signal?) {
        state.withLock { $0.hear(id, empty: NavigationIntent()) { $0.signal = .some(signal) } }
    }

    /// Runs a request against the navigation of a belt this gateway has served and that has no session;
    /// nil when the gateway has never served `id`.
    func update(_ id: String, _ request: (inout BeltNavigation) throws(CommandError) -> [NavigationAction])
        throws(CommandError)
        -> (actions: [NavigationAction], signal: BeltNavigation.Signal?)?
    {
        try state.withLock {
            (state: inout KeptAndHeard<BeltNavigation, NavigationIntent>) throws(CommandError) -> (
                actions: [NavigationAction], signal: BeltNavigation.Signal?
            )? in
            guard var navigation = state.kept(id) else { return nil }
            let actions = try request(&navigation)
            state.keep(navigation, for: id)
            return (actions, navigation.signal)
        }
    }
}
