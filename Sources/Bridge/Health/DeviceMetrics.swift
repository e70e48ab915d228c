import Locks

import struct Synchronization.Atomic

/// Counters per device (keyed `<family>/<id>`), written by the sessions and read by the health report.
/// A session finds its counter once and counts without a lock or a lookup: it counts every notification.
///
/// Bounded: anyone in radio range can advertise a family's name from any number of addresses, and each
/// that gets a session gets a counter (and a series in `/metrics`). Once `limit` devices are counted,
/// the counters no session holds any more make room for a new one.
final class DeviceMetrics: Sendable {
    struct Counters: Sendable, Equatable {
        var notifications = 0
        var decodeErrors = 0
        var connects = 0
    }

    /// One device's counters; a device that connects again counts on from where it was (unless its
    /// counter made room for others meanwhile).
    final class Counter: Sendable {
        let notifications = Atomic<Int>(0)
        let decodeErrors = Atomic<Int>(0)
        let connects = Atomic<Int>(0)
        /// Sessions holding this counter.
        fileprivate let holders = Atomic<Int>(0)

        var counts: Counters {
            Counters(
                notifications: notifications.load(ordering: .relaxed),
                decodeErrors: decodeErrors.load(ordering: .relaxed),
                connects: connects.load(ordering: .relaxed))
        }
    }

    /// Devices counted at most, as the gateway's other tables keyed by what advertises.
    static let defaultLimit = 1024

    private let limit: Int
    private let counters = Mutex<[String: Counter]>([:])

    init(limit: Int = DeviceMetrics.defaultLimit) {
        self.limit = limit
    }

    /// A device's key: `<family>/<id>`, as the health report and `/metrics` name it.
    static func key(_ family: DeviceFamily, _ id: String) -> String { "\(family.rawValue)/\(id)" }

    /// The counter of `key`, made on first use, for a session that holds it until `release(_:)`.
    func counter(for key: String) -> Counter {
        counters.withLock { counters in
            let counter: Counter
            if let existing = counters[key] {
                counter = existing
            } else {
                if counters.count >= limit {
                    counters = counters.filter { $0.value.holders.load(ordering: .relaxed) > 0 }
                }
                counter = Counter()
                counters[key] = counter
            }
            counter.holders.add(1, ordering: .relaxed)
            return counter
        }
    }

    /// A session of `key` has ended: its counter stays (the health report keeps showing it) until room is needed.
    func release(_ key: String) {
        counters.withLock { counters in _ = counters[key]?.holders.subtract(1, ordering: .relaxed) }
    }

    var snapshot: [String: Counters] { counters.withLock { $0 }.mapValues(\.counts) }
}
