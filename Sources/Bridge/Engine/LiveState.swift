import Locks

/// The live-state topics a session has published since its link came up, so that exactly those are
/// cleared when it ends (a device that never connected costs no messages).
final class LiveStateLedger: Sendable {
    private let topics = Mutex<Set<String>>([])

    func record(_ topic: String) { topics.withLock { _ = $0.insert(topic) } }

    /// The recorded topics, forgotten.
    func takeAll() -> [String] {
        topics.withLock { recorded in
            defer { recorded = [] }
            return recorded.sorted()
        }
    }
}
