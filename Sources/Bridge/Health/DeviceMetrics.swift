import Synchronization

/// Counters per device (keyed `<family>/<id>`), written by the sessions and read by the health report.
final class DeviceMetrics: Sendable {
    struct Counters: Sendable, Equatable {
        var notifications = 0
        var decodeErrors = 0
        var connects = 0
    }

    private let counters = Mutex<[String: Counters]>([:])

    func notification(_ key: String) { counters.withLock { $0[key, default: Counters()].notifications += 1 } }
    func decodeError(_ key: String) { counters.withLock { $0[key, default: Counters()].decodeErrors += 1 } }
    func connected(_ key: String) { counters.withLock { $0[key, default: Counters()].connects += 1 } }

    var snapshot: [String: Counters] { counters.withLock { $0 } }
}
