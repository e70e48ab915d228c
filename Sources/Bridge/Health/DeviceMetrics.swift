import Synchronization

/// Counters per device (keyed `<family>/<id>`), written by the sessions and read by the health report.
/// A session finds its counter once and counts without a lock or a lookup: it counts every notification.
final class DeviceMetrics: Sendable {
    struct Counters: Sendable, Equatable {
        var notifications = 0
        var decodeErrors = 0
        var connects = 0
    }

    /// One device's counters; a device that connects again counts on from where it was.
    final class Counter: Sendable {
        let notifications = Atomic<Int>(0)
        let decodeErrors = Atomic<Int>(0)
        let connects = Atomic<Int>(0)

        var counts: Counters {
            Counters(
                notifications: notifications.load(ordering: .relaxed), decodeErrors: decodeErrors.load(ordering: .relaxed),
                connects: connects.load(ordering: .relaxed))
        }
    }

    private let counters = Mutex<[String: Counter]>([:])

    /// The counter of `key`, made on first use.
    func counter(for key: String) -> Counter {
        counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter()
            counters[key] = counter
            return counter
        }
    }

    var snapshot: [String: Counters] { counters.withLock { $0 }.mapValues(\.counts) }
}
