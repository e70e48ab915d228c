import Foundation
import Locks

/// Prints when each phase of a long test ended and how long it took (`installed tier (Debian 13): booted 61.2 s,
/// at 61.2 s`), so that any CI log says where a slow world's minutes went without a run kept for it.
public final class PhaseClock: Sendable {
    private let label: String
    private let started = ContinuousClock.now
    private let lastMark: Mutex<ContinuousClock.Instant>

    public init(_ label: String) {
        self.label = label
        lastMark = Mutex(started)
    }

    /// Ends the phase that began at the previous mark (or at the start).
    public func mark(_ phase: String) {
        let now = ContinuousClock.now
        let since = lastMark.withLock { last in
            defer { last = now }
            return now - last
        }
        print("\(label): \(phase) \(Self.seconds(since)) s, at \(Self.seconds(now - started)) s")
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
