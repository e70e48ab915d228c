import Locks
import MQTT

/// The retained commands and requests the gateway cleared, until the broker echoes the clearing back.
///
/// A command or request that arrives retained is refused, not run (`CommandError.Code.retained`): the broker's
/// store delivered it, not a sender, and would deliver it again at every start and every reconnect (a retained
/// `restart` would restart the gateway for ever). Where the gateway may write the topic, it clears it with an empty
/// retained message, so the refusal is said once. The broker hands that empty message to every subscriber of
/// the topic, the gateway itself included (MQTT has no "not my own" for a plain subscription), and an empty
/// payload is a valid `{}` request or command: the echo must not be taken for one. So each clearing is kept here
/// until its echo comes, for a short while, and the receive path drops the echo (`takeEcho`).
final class RetainedClearings: Sendable {
    /// How long the echo of a clearing is waited for. The broker sends it back at once; an ACL that forbids the
    /// write (the README's keeps the gateway off command topics) sends nothing, and the entry then lapses, so a real
    /// empty command on that topic later is not swallowed.
    static let echoWindow = Duration.seconds(10)
    /// Clearings waiting for their echo at most: a flood of retained messages on ever new topics cannot grow the
    /// table. Beyond it a retained message is refused but left on the broker (refused again next time).
    static let limit = 256

    private let pending = Mutex<[String: ContinuousClock.Instant]>([:])

    /// Records a clearing of `topic` about to be published; false when the table is full (nothing recorded, so
    /// the caller must not clear: its echo would be taken for a command).
    func record(_ topic: String, at now: ContinuousClock.Instant = .now) -> Bool {
        pending.withLock { pending in
            if pending.count >= Self.limit { pending = pending.filter { $0.value > now } }
            guard pending.count < Self.limit || pending[topic] != nil else { return false }
            pending[topic] = now + Self.echoWindow
            return true
        }
    }

    /// Whether an empty message on `topic` is the echo of a clearing made within `echoWindow`; taken once.
    func takeEcho(_ topic: String, at now: ContinuousClock.Instant = .now) -> Bool {
        pending.withLock { pending in
            guard let deadline = pending.removeValue(forKey: topic) else { return false }
            return deadline > now
        }
    }

    /// Clearings waiting for their echo (for tests).
    var count: Int { pending.withLock { $0.count } }
}

extension CommandError {
    /// The answer to a `kind` (`request`, `command`) that came retained.
    static func retainedRefusal(of kind: String) -> CommandError {
        CommandError(
            .retained,
            "a retained \(kind) is not taken: the broker's store delivered it, and would again at every start and "
                + "reconnect; send \(kind)s without the retain flag (the gateway clears this one where the broker lets it)"
        )
    }
}
