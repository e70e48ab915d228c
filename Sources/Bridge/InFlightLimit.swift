import Locks

/// How many of something may run at once (gateway requests, one live page's frames waiting for replies): `take`
/// before starting one, `give` when it ends. What would be more is refused at once instead of waiting unbounded.
public final class InFlightLimit: Sendable {
    private let running = Mutex(0)
    public let limit: Int

    public init(_ limit: Int) { self.limit = limit }

    /// Takes a place; false when all are taken.
    public func take() -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    public func give() { running.withLock { $0 = max(0, $0 - 1) } }
}
