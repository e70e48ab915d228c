import Synchronization

/// How many of one page's frames may be in flight at once (each waits for a reply, up to the command
/// time-out): a page that sends faster than the gateway answers gets an error frame for the excess instead of
/// an unbounded number of waiting tasks.
final class RequestSlots: Sendable {
    private let used = Mutex(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Takes a slot; false when all are taken.
    func take() -> Bool {
        used.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func give() { used.withLock { $0 = max(0, $0 - 1) } }
}
