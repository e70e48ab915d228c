import Locks

/// Which adapters this client wants discovering, and which connections or pairings hold it paused.
/// Its callers take their turn on `BlueZClient.discoveryTurns` around each change.
///
/// On the real stack a `Device1.Connect` issued while discovery runs waits for the end of the
/// kernel's discovery window (10.24 s, then bluetoothd starts the next one), so it timed out with
/// NoReply after 10 s, four times in a row (BlueZoo never does that). Real clients (bleak,
/// bluetoothctl users) stop discovery first.
/// The bridge wants discovery on all the time, so each connect or pair pauses it, and the last one
/// to finish starts it again.
final class DiscoveryGate: Sendable {
    private struct State {
        /// Adapter path → the filter its discovery was asked for with.
        var wanted: [String: DiscoveryFilter] = [:]
        /// Adapter path → connections and pairings under way.
        var pauses: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// Records that discovery is wanted; returns whether it may run now (no pause holds it).
    func want(_ adapterPath: String, filter: DiscoveryFilter) -> Bool {
        state.withLock { state in
            state.wanted[adapterPath] = filter
            return state.pauses[adapterPath, default: 0] == 0
        }
    }

    func unwant(_ adapterPath: String) {
        _ = state.withLock { $0.wanted.removeValue(forKey: adapterPath) }
    }

    /// Takes a pause; returns whether this is the first, so discovery must be stopped now.
    func pause(_ adapterPath: String) -> Bool {
        state.withLock { state in
            state.pauses[adapterPath, default: 0] += 1
            return state.pauses[adapterPath] == 1 && state.wanted[adapterPath] != nil
        }
    }

    /// Ends a pause; returns the filter to start discovery again with when it was the last one.
    func resume(_ adapterPath: String) -> DiscoveryFilter? {
        state.withLock { state in
            let left = max(0, state.pauses[adapterPath, default: 1] - 1)
            state.pauses[adapterPath] = left == 0 ? nil : left
            return left == 0 ? state.wanted[adapterPath] : nil
        }
    }
}
