import Locks
import Logging
import NIOCore

/// The live page's `ConnectionTable` over real channels: admits each accepted connection, closes the ones the
/// table gives up for it, and hears how far each has come (`RequestHeadDeadline`: a whole head; `AccessGuard`:
/// logged in).
final class ConnectionGate: Sendable {
    private struct State: Sendable {
        var table: ConnectionTable<ObjectIdentifier>
        var channels: [ObjectIdentifier: any Channel] = [:]
        /// When the last "connection refused" line was logged: one a minute at most, however many come.
        var lastRefusalLogged: ContinuousClock.Instant?
        var refusedSinceLine = 0
    }

    private let state: Mutex<State>
    private let logger: Logger

    init(maxTotal: Int, maxPerSource: Int, logger: Logger) {
        state = Mutex(State(table: ConnectionTable(maxTotal: maxTotal, maxPerSource: maxPerSource)))
        self.logger = logger
    }

    /// Called once per accepted connection, before it is served. A refused connection is closed at once.
    func admit(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let source = SourceAddress(channel.remoteAddress)
        let (admission, victims, refusalLine) = state.withLock { state in
            let admission = state.table.open(id, from: source)
            let victims = admission.evicted.compactMap { state.channels.removeValue(forKey: $0) }
            var refusalLine: Int?
            if admission.admitted {
                state.channels[id] = channel
            } else {
                state.refusedSinceLine += 1
                let now = ContinuousClock.now
                if state.lastRefusalLogged.map({ now - $0 >= .seconds(60) }) ?? true {
                    state.lastRefusalLogged = now
                    refusalLine = state.refusedSinceLine
                    state.refusedSinceLine = 0
                }
            }
            return (admission, victims, refusalLine)
        }
        for victim in victims { victim.close(promise: nil) }
        if let refusalLine {
            logger.warning(
                "live page: connection refused, every connection is logged in",
                metadata: ["source": "\(source)", "refused_since_last_line": "\(refusalLine)"])
        }
        guard admission.admitted else {
            channel.close(promise: nil)
            return
        }
        channel.closeFuture.whenComplete { [self] _ in
            state.withLock { state in
                state.table.close(id)
                state.channels[id] = nil
            }
        }
    }

    func reached(_ stage: ConnectionTable<ObjectIdentifier>.Stage, _ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { $0.table.reached(stage, id) }
    }

    /// How many connections are held, for tests.
    var count: Int { state.withLock { $0.table.count } }
}
