import Locks

/// One device's own intervals (`devices.intervals`: its `battery_s` rather than its family's), which the gateway
/// sets at run time. Periodic work paced by one of them asks here for its interval when it starts, and is started
/// again with the new one when the device's choice changes: at once, not after the old interval (an hour's battery
/// read changed to a minute's would otherwise wait the hour).
final class DeviceIntervals: Sendable {
    /// Work running under `key` in the connection's scope, paced by `setting`.
    private struct Paced {
        var setting: String
        /// The family's interval.
        var standard: Duration
        /// Starts the work again at a new interval in place of the running one; false when it no longer runs.
        var restart: @Sendable (Duration) -> Bool
    }

    private struct State {
        var chosen: [String: Duration]
        var paced: [String: Paced] = [:]
    }

    private let state: Mutex<State>

    /// `chosen`: setting → the device's own interval.
    init(_ chosen: [String: Duration] = [:]) { state = Mutex(State(chosen: chosen)) }

    /// Starts work under `key` paced by `setting` (`start` given the device's interval, else `standard`), and keeps
    /// `start` to start it again when the device's interval changes.
    func pace(
        _ key: String, by setting: String, standard: Duration,
        start: @escaping @Sendable (Duration, _ replacing: Bool) -> Bool
    ) {
        // Under the lock, as `set` restarts: a change between the two cannot leave the work at the old interval.
        state.withLock { state in
            state.paced[key] = Paced(setting: setting, standard: standard, restart: { start($0, true) })
            _ = start(state.chosen[setting] ?? standard, false)
        }
    }

    /// The device's intervals are now `chosen`: each running work whose interval changed starts again with the new
    /// one; work that ended is forgotten.
    func set(_ chosen: [String: Duration]) {
        state.withLock { state in
            let before = state.chosen
            state.chosen = chosen
            for (key, paced) in state.paced {
                let (old, new) = (before[paced.setting] ?? paced.standard, chosen[paced.setting] ?? paced.standard)
                guard old != new else { continue }
                if !paced.restart(new) { state.paced.removeValue(forKey: key) }
            }
        }
    }
}
