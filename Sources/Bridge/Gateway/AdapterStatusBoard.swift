import Locks

/// The last status of each of the gateway's adapters and of all of them together, owned here: what the
/// retained `gatt2mqtt/<gateway>/adapter` topics said last, so that they are published only on a change,
/// and which adapters a device may be placed on.
final class AdapterStatusBoard: Sendable {
    private struct State {
        var statuses: [String: AdapterStatus] = [:]
        var summary: AdapterStatus?
    }

    /// The gateway's adapters, in the configuration's order.
    let adapters: [String]
    private let state = Mutex(State())

    init(adapters: [String]) { self.adapters = adapters }

    /// Records `status` for `name`: whether it changed, and the new summary when that changed (an adapter not
    /// reported yet counts as missing).
    func record(_ status: AdapterStatus, of name: String) -> (changed: Bool, summary: AdapterStatus?) {
        state.withLock { state in
            let changed = state.statuses[name] != status
            state.statuses[name] = status
            let summary = AdapterStatus.summary(adapters.map { state.statuses[$0] ?? .missing })
            defer { state.summary = summary }
            return (changed, state.summary != summary ? summary : nil)
        }
    }

    /// Every adapter's last status (missing until reported).
    var all: [String: AdapterStatus] {
        state.withLock { state in
            Dictionary(uniqueKeysWithValues: adapters.map { ($0, state.statuses[$0] ?? .missing) })
        }
    }

    /// The adapters last reported powered, in the configuration's order.
    var powered: [String] { state.withLock { state in adapters.filter { state.statuses[$0] == .powered } } }
}
