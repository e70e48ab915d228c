import BlueZ
import Locks

/// The one way a family's stream reaches the broker: each value is decoded and published on the thread
/// that received it (`dbus-io`), through a `NotificationLane`, so that a value at 200/s wakes no other
/// thread on its way. The session (an actor) keeps the handshake and the commands; the state both touch
/// (what the stream last published, a tare, statistics) lives here, under one lock.
///
/// Until `goLive()` (the end of the handshake) and after `stop()`, every value goes on to the session's
/// stream instead: during a handshake the session waits for answers among them.
final class TelemetryLane<State: Sendable>: Sendable {
    private struct Guarded: Sendable {
        var live = false
        var state: State
    }

    let core: SessionCore
    private let guarded: Mutex<Guarded>

    init(core: SessionCore, state: State) {
        self.core = core
        guarded = Mutex(Guarded(state: state))
    }

    /// What a lane made of a value under its lock.
    private enum Taken {
        /// Before `goLive()` or after `stop()`: the session takes it.
        case notLive
        /// Not the stream's (an answer): `declined` takes it, once the lock is released.
        case declined
        case publish([Publication])
    }

    /// The lane of one characteristic. `take` turns a value into what to publish, under the lock; nil declines it
    /// (what else the value means, `take` has noted under the same lock), and `declined` takes it on, outside the lock
    /// (an answer a command may be waiting for): each value is reduced once, here. Bytes that do not decode (`take`
    /// throws) are counted and logged here, in their turn, and published nowhere.
    func lane(
        for characteristic: String, _ take: @escaping @Sendable (inout State, [UInt8]) throws -> [Publication]?,
        declined: @escaping @Sendable ([UInt8]) -> Void
    ) -> NotificationLane {
        { [self] bytes in
            // No `Result` around the take: its copies cost a few hundred instructions a value on this, every
            // stream's, path (callgrind).
            let taken: Taken
            do {
                taken = try guarded.withLock { guarded throws -> Taken in
                    guard guarded.live else { return .notLive }
                    guard let publications = try take(&guarded.state, bytes) else { return .declined }
                    return .publish(publications)
                }
            } catch {
                core.countNotification()
                core.countMalformed(bytes, from: characteristic, error)
                return true
            }
            switch taken {
            case .notLive:
                return false
            case .declined:
                core.countNotification()
                declined(bytes)
            case .publish(let publications):
                core.countNotification()
                core.publish(publications)
            }
            return true
        }
    }

    /// Publishes what `body` makes of the state: for a value the session received itself.
    func publish(_ body: (inout State) -> [Publication]) { core.publish(withState(body)) }

    func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        guarded.withLock { body(&$0.state) }
    }

    /// The handshake is over: the lanes take their values.
    func goLive() { guarded.withLock { $0.live = true } }

    /// The link ended: values go to the session again, and `reset` puts the state back as it starts.
    func stop(reset: (inout State) -> Void = { _ in }) {
        guarded.withLock {
            $0.live = false
            reset(&$0.state)
        }
    }
}
