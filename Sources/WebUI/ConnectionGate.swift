import Bridge
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
    }

    private let state: Mutex<State>
    private let logger: Logger
    /// "Connection refused" is logged once a minute at most, however many come; the line says how many were left out.
    private let refusals = WarningLimiter(burst: 1, period: .seconds(60))

    init(maxTotal: Int, maxPerSource: Int, logger: Logger) {
        state = Mutex(State(table: ConnectionTable(maxTotal: maxTotal, maxPerSource: maxPerSource)))
        self.logger = logger
    }

    /// Called once per accepted connection, before it is served. A refused connection is closed at once.
    func admit(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        let source = SourceAddress(channel.remoteAddress)
        let (admission, victims) = state.withLock { state in
            let admission: ConnectionTable<ObjectIdentifier>.Admission
            do {
                // A read-only view for the kernel's answers while the table changes; gone before the channels are
                // changed below, so that those changes copy nothing.
                let channels = state.channels
                admission = state.table.open(id, from: source, at: .now) { candidate in
                    channels[candidate].map(BytesReceived.any(on:)) ?? false
                }
            }
            let victims = admission.evicted.compactMap { state.channels.removeValue(forKey: $0) }
            if admission.admitted { state.channels[id] = channel }
            return (admission, victims)
        }
        for victim in victims { victim.close(promise: nil) }
        guard admission.admitted else {
            refusals.warn(
                "live page: connection refused, every connection is at work", kind: "connection refused",
                metadata: ["source": "\(source)"], to: logger)
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

    /// A logged-in request is being served on `channel`, or its WebSocket runs (`ConnectionTable.started`).
    func started(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { $0.table.started(id) }
    }

    /// The request `started` on `channel` is answered, its response written.
    func finished(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        state.withLock { $0.table.finished(id) }
    }

    /// How many connections are held, for tests.
    var count: Int { state.withLock { $0.table.count } }
}
