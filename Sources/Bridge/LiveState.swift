import Synchronization

extension DeviceFamily {
    /// The retained leaves that describe a connected device (its mode, battery, settings). They would lie
    /// while the device is away, so they are cleared when its link ends, and after a crash by the next
    /// start (topics.md, "Retained state"). `connection`, `info`, the belt's `navigation` (the bridge's own
    /// state), the grip's `bonded` and `state` and the band's last `session` stay: they are true while away.
    var liveStateLeaves: Set<String> {
        switch self {
        case .belt: ["mode", "battery", "intensity", "heading_offset", "compass_accuracy_signal"]
        case .a5: ["squeeze", "state", "battery"]
        case .cpr: ["mode", "battery"]
        case .grip: ["battery"]
        }
    }
}

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
