import BlueZ
import Locks

/// A session with its task and its command queue.
struct RunningSession: Sendable {
    var session: any DeviceSession
    var address: String
    var adapter: String
    var task: Task<Void, Never>
    var commands: AsyncStream<CommandRouter.Queued>.Continuation
    /// Its connection state, which the session sets (`SessionContext.connection`).
    var connection: ConnectionRecord
    /// Whether its streams reach the broker (`SessionContext.streams`), which the gateway switches.
    var streams = StreamSwitch()
    /// Its own intervals (`SessionContext.intervals`), which the gateway sets.
    var intervals = DeviceIntervals()
}

/// The devices the gateway serves: each running session by its object path (the adapter's device that serves
/// it), found as well by `<family>/<id>` (a command) and by address (the device policy, the fleet), with its
/// connection state (each session's `ConnectionRecord`, read here); and the addresses that wait for a free slot. Under a lock of its own, apart
/// from the users' choices (`DeviceChoices`): a command finding its session never waits for the device policy.
final class SessionTable: Sendable {
    private struct State {
        var sessions: [String: RunningSession] = [:]
        var pathsByDevice: [String: String] = [:]
        var pathsByAddress: [String: String] = [:]
        var waitingForSlot: Set<String> = []

        /// Sessions (connections held or sought) per adapter.
        var load: [String: Int] { Dictionary(sessions.values.map { ($0.adapter, 1) }, uniquingKeysWith: +) }
    }

    /// What `place` did with a device.
    enum Placement: Equatable {
        /// A session started for it.
        case started
        /// It has a session already.
        case served
        /// The users' choices no longer want it: a request came while it was being placed.
        case unwanted
        /// Every adapter that may serve it is full; `newly` when it was not waiting yet.
        case waiting(newly: Bool)
    }

    private let state = Mutex(State())

    // MARK: Finding sessions

    func session(at path: String) -> RunningSession? { state.withLock { $0.sessions[path] } }

    /// The session serving `<family>/<id>`, if any.
    func session(family: DeviceFamily, id: String) -> RunningSession? {
        state.withLock { state in state.pathsByDevice[DeviceMetrics.key(family, id)].flatMap { state.sessions[$0] } }
    }

    /// The object path of the session serving `address`, if any.
    func path(serving address: String) -> String? { state.withLock { $0.pathsByAddress[address] } }

    /// The session whose device holds `path` (one of its GATT services, characteristics…).
    func session(holding path: String) -> (any DeviceSession)? {
        state.withLock { $0.sessions.first { path.hasPrefix($0.key + "/") }?.value.session }
    }

    var all: [any DeviceSession] { state.withLock { $0.sessions.values.map(\.session) } }
    var paths: Set<String> { state.withLock { Set($0.sessions.keys) } }

    /// The addresses the table holds on to (served or waiting): the device policy forgets no stranger among them.
    var addresses: Set<String> { state.withLock { Set($0.pathsByAddress.keys).union($0.waitingForSlot) } }

    // MARK: States

    /// Sessions per connection state (`connecting` until a session says otherwise), for the health report.
    var countsByState: [String: Int] {
        state.withLock { state in
            Dictionary(
                state.sessions.values.map { ($0.connection.announced?.rawValue ?? "connecting", 1) },
                uniquingKeysWith: +)
        }
    }

    /// What the inventory shows: each served path's state, and the addresses that wait for a slot.
    func inventoryView() -> (states: [String: ConnectionState], served: Set<String>, waiting: Set<String>) {
        state.withLock { state in
            (state.sessions.compactMapValues(\.connection.announced), Set(state.sessions.keys), state.waitingForSlot)
        }
    }

    /// What the fleet weighs for `address`: the path of its session (if any), whether that session is connected,
    /// and the sessions per adapter.
    func fleetView(of address: String) -> (path: String?, linkUp: Bool, load: [String: Int]) {
        state.withLock { state in
            let path = state.pathsByAddress[address]
            let linkUp = path.flatMap { state.sessions[$0]?.connection.announced } == .connected
            return (path, linkUp, state.load)
        }
    }

    var hasWaiting: Bool { state.withLock { !$0.waitingForSlot.isEmpty } }

    // MARK: Placing and removing

    /// Places a device unless it has a session or `wanted` says no more: `choose` picks the object to serve it
    /// through, given the sessions per adapter (nil when every adapter that may serve it is full), and `start` makes
    /// its session. Under the table's lock, so that two devices never take one adapter's last slot, and so that a
    /// request that changes the users' choices before it removes a session (`DeviceSessions.release`) is seen
    /// either here, or by its removal of what started here.
    func place(
        _ address: String, wanted: () -> Bool = { true }, choose: (_ load: [String: Int]) -> BlueZDevice?,
        start: (BlueZDevice) -> RunningSession
    ) -> Placement {
        state.withLock { state in
            guard state.pathsByAddress[address] == nil else { return .served }
            guard wanted() else { return .unwanted }
            guard let device = choose(state.load) else {
                return .waiting(newly: state.waitingForSlot.insert(address).inserted)
            }
            state.waitingForSlot.remove(address)
            let running = start(device)
            state.sessions[device.path] = running
            state.pathsByDevice[DeviceMetrics.key(running.session.family, running.session.id)] = device.path
            state.pathsByAddress[running.address] = device.path
            return .started
        }
    }

    func remove(at path: String) -> RunningSession? {
        state.withLock { state in
            guard let removed = state.sessions.removeValue(forKey: path) else { return nil }
            state.pathsByDevice.removeValue(forKey: DeviceMetrics.key(removed.session.family, removed.session.id))
            state.pathsByAddress.removeValue(forKey: removed.address)
            return removed
        }
    }

    func removeAll() -> [RunningSession] {
        state.withLock { state in
            defer { (state.sessions, state.pathsByDevice, state.pathsByAddress) = ([:], [:], [:]) }
            return Array(state.sessions.values)
        }
    }
}
