import Locks

/// A value that arrived: its sequence and the moment (CLOCK_MONOTONIC, ns).
struct Reception: Sendable {
    var sequence: Int
    var nanoseconds: UInt64
}

/// Arrivals by key (a device), from any thread.
final class ReceptionTable: Sendable {
    private let table = Mutex<[String: [Reception]]>([:])

    func append(_ reception: Reception, to key: String) {
        table.withLock { $0[key, default: []].append(reception) }
    }

    func receptions(_ key: String) -> [Reception] { table.withLock { $0[key] ?? [] } }

    func clear() { table.withLock { $0 = [:] } }
}
